import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError, UsageError } from '../core/errors.js';
import { detectFormat, openTaskSource, readPrd } from './load-task-source.js';
import { UnknownStoryError } from './source-errors.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures/sources', import.meta.url));
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-sources-'));
  await cp(fixtures, dir, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of await readdir(root, { recursive: true, encoding: 'utf8' })) {
    const path = join(root, rel);
    if ((await stat(path)).isFile()) out.set(path, await readFile(path, 'utf8'));
  }
  return out;
}

describe('detectFormat', () => {
  it('tells the formats apart by extension and directory layout', async () => {
    const project = join(dir, 'specs-project');
    expect(detectFormat(join(dir, 'prd.json'))).toEqual({ format: 'prd-json', path: join(dir, 'prd.json') });
    expect(detectFormat(join(dir, 'prd.md'))).toEqual({ format: 'prd-md', path: join(dir, 'prd.md') });
    expect(detectFormat(join(project, 'specs'))).toEqual({
      format: 'spec-dir',
      path: join(project, 'specs'),
    });
    expect(detectFormat(project)).toEqual({ format: 'spec-dir', path: join(project, 'specs') });
    expect(detectFormat(join(dir, 'missing.json'))).toEqual({
      format: 'prd-json',
      path: join(dir, 'missing.json'),
    });

    const prdDir = join(dir, 'prds', 'cal');
    await mkdir(prdDir, { recursive: true });
    await cp(join(dir, 'prd.md'), join(prdDir, 'prd.md'));
    expect(detectFormat(prdDir)).toEqual({ format: 'prd-md', path: join(prdDir, 'prd.md') });
  });

  it('rejects a file of another kind', async () => {
    await writeFile(join(dir, 'tasks.txt'), 'x');
    expect(() => detectFormat(join(dir, 'tasks.txt'))).toThrow(UsageError);
  });
});

describe('readPrd', () => {
  it('reads all three fixture formats', async () => {
    const counts = await Promise.all(
      ['prd.json', 'prd.md', 'specs-project'].map(async (name) => {
        const result = await readPrd(join(dir, name));
        return result.ok
          ? [result.prd.format, result.prd.stories.length, result.warnings.length]
          : result.issues;
      }),
    );
    expect(counts).toEqual([
      ['prd-json', 4, 0],
      ['prd-md', 4, 0],
      ['spec-dir', 13, 0],
    ]);
    const specs = await readPrd(join(dir, 'specs-project'));
    expect(specs.ok && specs.prd.project).toBe('specs-project');
  });

  it('reports a missing file or directory as an issue', async () => {
    expect(await readPrd(join(dir, 'nope.md'))).toEqual({
      ok: false,
      issues: [{ file: join(dir, 'nope.md'), message: 'no such file or directory', severity: 'error' }],
    });
    expect(await readPrd(join(dir, 'nope'))).toEqual({
      ok: false,
      issues: [{ file: join(dir, 'nope'), message: 'no such file or directory', severity: 'error' }],
    });
    await writeFile(join(dir, 'tasks.txt'), 'x');
    const other = await readPrd(join(dir, 'tasks.txt'));
    expect(other.ok ? [] : other.issues.map((i) => i.message)).toEqual([
      `cannot tell the task format of ${join(dir, 'tasks.txt')}`,
    ]);
  });

  it('adds the story-graph checks to the format checks', async () => {
    const file = join(dir, 'prd.md');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('**Depends on:** none', '**Depends on:** US-003, US-042'));
    const withCycle = (await readFile(file, 'utf8')).replace(
      '**Depends on:** US-001, US-002',
      '**Depends on:** US-004',
    );
    await writeFile(file, withCycle);
    const result = await readPrd(file);
    expect(result.ok ? [] : result.issues.map((i) => [i.line, i.message])).toEqual([
      [59, 'US-004 depends on unknown story US-042'],
      [47, 'dependency cycle: US-003 -> US-004 -> US-003'],
    ]);
  });

  it('keeps format warnings next to a valid result', async () => {
    await writeFile(join(dir, 'bare.md'), '### US-1: One\n');
    const result = await readPrd(join(dir, 'bare.md'));
    expect(result.ok && result.warnings.map((w) => w.severity)).toEqual(['warning']);
  });
});

describe('setStatus', () => {
  it('updates one story of a prd.json on disk and nothing else', async () => {
    const file = join(dir, 'prd.json');
    const before = await readFile(file, 'utf8');
    await openTaskSource(file).setStatus('US-003', 'done');
    const after = await readFile(file, 'utf8');
    expect(after).toBe(before.replace(/("id": "US-003"[\s\S]*?"passes": )false/, '$1true'));
    const result = await readPrd(file);
    expect(result.ok && result.prd.stories.map((s) => s.status)).toEqual([
      'done',
      'in-progress',
      'done',
      'todo',
    ]);
  });

  it('updates one story of a prd.md on disk', async () => {
    const file = join(dir, 'prd.md');
    const source = openTaskSource(file);
    await source.setStatus('US-004', 'done');
    const result = await source.read();
    expect(result.ok && result.prd.stories.map((s) => s.status)).toEqual([
      'done',
      'in-progress',
      'todo',
      'done',
    ]);
    expect(await readFile(file, 'utf8')).toContain('**Status:** done\n**Description:** As an attendee');
  });

  it('rewrites only the story file of a spec directory', async () => {
    const project = join(dir, 'specs-project');
    const before = await snapshot(project);
    const source = openTaskSource(project);
    expect(source.format).toBe('spec-dir');
    await source.setStatus('1.10', 'done');
    const after = await snapshot(project);
    const target = join(project, 'specs', 'epic-1', 'story-1.10-monthly-report.md');
    for (const [path, text] of before) {
      if (path === target) expect(after.get(path)).toBe(text.replace('status: pending', 'status: done'));
      else expect(after.get(path)).toBe(text);
    }
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    await source.setStatus('2.3', 'in-progress');
    const result = await source.read();
    const status = result.ok ? new Map(result.prd.stories.map((s) => [s.id, s.status])) : new Map();
    expect([status.get('1.10'), status.get('2.3'), status.get('1.9')]).toEqual([
      'done',
      'in-progress',
      'todo',
    ]);
  });

  it('throws typed errors for an unknown story and an unreadable source', async () => {
    await expect(openTaskSource(join(dir, 'prd.json')).setStatus('US-404', 'done')).rejects.toThrow(
      UnknownStoryError,
    );
    await expect(openTaskSource(join(dir, 'specs-project')).setStatus('9.9', 'done')).rejects.toThrow(
      UnknownStoryError,
    );
    await expect(openTaskSource(join(dir, 'gone.md')).setStatus('US-1', 'done')).rejects.toThrow(
      InvalidInputError,
    );
  });
});
