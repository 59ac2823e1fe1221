import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addPatterns,
  appendEntry,
  type ProgressEntry,
  readCodebasePatterns,
  readProgress,
  updateProgress,
} from './progress.js';

const entry: ProgressEntry = {
  date: '2026-01-02 10:30',
  storyId: 'US-001',
  title: 'Add login form',
  summary: 'Built the form\nWired it to the API',
  filesChanged: ['src/login.tsx', 'src/api.ts'],
  learnings: ['Forms use react-hook-form', 'Run `npm run gen` after editing the schema'],
};

describe('readCodebasePatterns', () => {
  it('reads the bullets of the section, joining wrapped lines', () => {
    const text = [
      '# Ralph Progress Log',
      '## Codebase Patterns',
      '- Use `sql<number>` for aggregations',
      '* Migrations: always IF NOT EXISTS,',
      '  even in tests',
      '',
      '## 2026-01-01 - US-000: Setup',
      '- not a pattern',
      '---',
    ].join('\n');
    expect(readCodebasePatterns(text)).toEqual([
      'Use `sql<number>` for aggregations',
      'Migrations: always IF NOT EXISTS, even in tests',
    ]);
  });

  it('is empty without the section', () => {
    expect(readCodebasePatterns('')).toEqual([]);
    expect(readCodebasePatterns('## 2026-01-01 - US-001: X\n- a\n---\n')).toEqual([]);
  });
});

describe('addPatterns', () => {
  it('creates the section on top of an empty file', () => {
    expect(addPatterns('', ['Use pnpm'])).toBe('## Codebase Patterns\n- Use pnpm\n');
  });

  it('creates the section above existing entries, below a title block', () => {
    const text = '# Ralph Progress Log\nStarted: today\n---\n\n## 2026-01-01 - US-001: X\n- did it\n---\n';
    expect(addPatterns(text, ['Use pnpm'])).toBe(
      '# Ralph Progress Log\nStarted: today\n---\n\n## Codebase Patterns\n- Use pnpm\n\n## 2026-01-01 - US-001: X\n- did it\n---\n',
    );
    const noTitle = '## 2026-01-01 - US-001: X\n- did it\n---\n';
    expect(addPatterns(noTitle, ['A'])).toBe(`## Codebase Patterns\n- A\n\n${noTitle}`);
  });

  it('appends to the existing section and skips duplicates', () => {
    const text = '## Codebase Patterns\n- Use pnpm\n\n## 2026-01-01 - US-001: X\n---\n';
    const out = addPatterns(text, ['use  PNPM.', '- Tests live beside code', 'Tests live beside code', '  ']);
    expect(out).toBe(
      '## Codebase Patterns\n- Use pnpm\n- Tests live beside code\n\n## 2026-01-01 - US-001: X\n---\n',
    );
    expect(addPatterns(out, ['Use pnpm'])).toBe(out);
    expect(readCodebasePatterns(out)).toEqual(['Use pnpm', 'Tests live beside code']);
  });

  it('keeps CRLF line endings', () => {
    const out = addPatterns('## Codebase Patterns\r\n- A\r\n', ['B']);
    expect(out).toBe('## Codebase Patterns\r\n- A\r\n- B\r\n');
  });
});

describe('appendEntry', () => {
  it('writes a snarktank-style entry with a separator', () => {
    expect(appendEntry('', entry)).toBe(
      [
        '## 2026-01-02 10:30 - US-001: Add login form',
        '- Built the form',
        '- Wired it to the API',
        '- Files changed:',
        '  - src/login.tsx',
        '  - src/api.ts',
        '- **Learnings for future iterations:**',
        '  - Forms use react-hook-form',
        '  - Run `npm run gen` after editing the schema',
        '---',
        '',
      ].join('\n'),
    );
  });

  it('leaves one blank line before the new entry and keeps the patterns readable', () => {
    const start = addPatterns('', ['Use pnpm']);
    const once = appendEntry(start, { ...entry, filesChanged: [], learnings: [] });
    expect(once).toBe(
      '## Codebase Patterns\n- Use pnpm\n\n## 2026-01-02 10:30 - US-001: Add login form\n- Built the form\n- Wired it to the API\n---\n',
    );
    const twice = appendEntry(`${once}\n\n`, { ...entry, storyId: 'US-002', summary: 'More' });
    expect(twice).toContain('---\n\n## 2026-01-02 10:30 - US-002: Add login form\n- More\n');
    expect(readCodebasePatterns(twice)).toEqual(['Use pnpm']);
    expect(readCodebasePatterns(addPatterns(twice, ['New one']))).toEqual(['Use pnpm', 'New one']);
  });
});

describe('progress file on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-progress-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads a missing file as empty and writes only on change', async () => {
    for (const name of ['progress.md', 'progress.txt']) {
      const file = path.join(dir, 'prd', name);
      expect(await readProgress(file)).toBe('');
      expect(await updateProgress(file, (t) => t)).toBe(false);
      await expect(fs.stat(file)).rejects.toThrow();
      expect(await updateProgress(file, (t) => appendEntry(addPatterns(t, ['Use pnpm']), entry))).toBe(true);
      expect(readCodebasePatterns(await readProgress(file))).toEqual(['Use pnpm']);
      expect(await updateProgress(file, (t) => addPatterns(t, ['use pnpm']))).toBe(false);
    }
  });
});
