import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import * as embedded from './embedded-prompts.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const promptsDir = path.join(root, 'prompts');
const constantName = (file: string) =>
  `${path
    .basename(file, '.md')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}_PROMPT`;

describe('embedded prompts', () => {
  it('match prompts/*.md exactly (run `node scripts/embed-prompts.mjs` after editing a prompt)', async () => {
    const files = (await readdir(promptsDir)).filter((f) => f.endsWith('.md')).sort();
    expect(files).toContain('story.md');
    const exported: Record<string, unknown> = { ...embedded };
    for (const file of files) {
      expect(exported[constantName(file)], file).toBe(await readFile(path.join(promptsDir, file), 'utf8'));
    }
    expect(Object.keys(exported).sort()).toEqual(files.map(constantName).sort());
  });

  it('the generator agrees in --check mode', async () => {
    const result = await execa('node', [path.join(root, 'scripts', 'embed-prompts.mjs'), '--check'], {
      cwd: root,
      reject: false,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });
});
