import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { listPrdNames, resolveTarget } from './resolve-target.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-target-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function write(rel: string, content = ''): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
  return file;
}

async function usageError(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  if (!(error instanceof UsageError)) throw new Error('unreachable');
  return error;
}

const text = (error: UsageError): string => [error.message, ...error.details].join('\n');

describe('resolveTarget by PRD name', () => {
  it('finds .ralph/prds/<name>/prd.md before prd.json', async () => {
    const md = await write('.ralph/prds/auth/prd.md');
    await write('.ralph/prds/auth/prd.json', '{}');
    expect(await resolveTarget(root, 'auth')).toEqual({
      name: 'auth',
      format: 'prd-md',
      taskPath: md,
      progressPath: path.join(root, '.ralph/prds/auth/progress.md'),
      runDir: path.join(root, '.ralph/runs/auth'),
    });
  });

  it('falls back to prd.json', async () => {
    const json = await write('.ralph/prds/auth/prd.json', '{}');
    const target = await resolveTarget(root, 'auth');
    expect(target.taskPath).toBe(json);
    expect(target.format).toBe('prd-json');
  });

  it('explains what it looked for when the name matches nothing', async () => {
    await write('.ralph/prds/other/prd.md');
    const error = await usageError(resolveTarget(root, 'missing', { cwd: root }));
    expect(text(error)).toContain(path.join(root, '.ralph/prds/missing/prd.md'));
    expect(text(error)).toContain(path.join(root, '.ralph/prds/missing/prd.json'));
    expect(text(error)).toContain('other');
    expect(text(error)).not.toContain('Did you mean');
  });

  it('says which PRD a mistyped name probably meant', async () => {
    await write('.ralph/prds/example/prd.md');
    await write('.ralph/prds/billing/prd.md');
    const error = await usageError(resolveTarget(root, 'exmaple', { cwd: root }));
    expect(error.details[0]).toBe('Did you mean "example"?');
    expect(text(await usageError(resolveTarget(root, 'biling', { cwd: root })))).toContain(
      'Did you mean "billing"?',
    );
  });
});

describe('resolveTarget without a target', () => {
  it('uses the only PRD', async () => {
    await write('.ralph/prds/solo/prd.json', '{}');
    await fs.mkdir(path.join(root, '.ralph/prds/empty-folder'), { recursive: true });
    expect((await resolveTarget(root)).name).toBe('solo');
    expect(await listPrdNames(root)).toEqual(['solo']);
  });

  it('uses main when there are several', async () => {
    await write('.ralph/prds/a/prd.md');
    await write('.ralph/prds/main/prd.md');
    expect((await resolveTarget(root)).name).toBe('main');
  });

  it('asks which one when there are several and no main', async () => {
    await write('.ralph/prds/a/prd.md');
    await write('.ralph/prds/b/prd.json', '{}');
    const error = await usageError(resolveTarget(root));
    expect(text(error)).toContain('a, b');
  });

  it('says where it looked when there is none', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    const error = await usageError(resolveTarget(root));
    expect(text(error)).toContain(path.join(root, '.ralph/prds'));
    expect(text(error)).toContain('Create one with `ralph init`');
  });

  it('outside a git repository, says to make one first rather than send to `ralph init`, which needs it', async () => {
    const error = await usageError(resolveTarget(root));
    expect(text(error)).not.toContain('Create one with `ralph init`');
    expect(text(error)).toContain('is not inside a git repository');
    expect(text(error)).toContain('`git init` and make a first commit, then `ralph init`');
  });
});

describe('resolveTarget by path', () => {
  it('keeps progress.md beside a prd.json outside .ralph and derives the run name', async () => {
    const json = await write('scripts/ralph/prd.json', '{}');
    expect(await resolveTarget(root, 'scripts/ralph/prd.json', { cwd: root })).toEqual({
      name: 'ralph-prd',
      format: 'prd-json',
      taskPath: json,
      progressPath: path.join(root, 'scripts/ralph/progress.md'),
      runDir: path.join(root, '.ralph/runs/ralph-prd'),
    });
  });

  it('prefers an existing progress.txt', async () => {
    const md = await write('docs/my plan/prd.md');
    await write('docs/my plan/progress.txt');
    const target = await resolveTarget(root, md);
    expect(target.progressPath).toBe(path.join(root, 'docs/my plan/progress.txt'));
    expect(target.name).toBe('my-plan-prd');
    expect(target.format).toBe('prd-md');
  });

  it('treats a file inside .ralph/prds/<name>/ as that PRD', async () => {
    const json = await write('.ralph/prds/auth/prd.json', '{}');
    const target = await resolveTarget(root, json);
    expect(target.name).toBe('auth');
    expect(target.progressPath).toBe(path.join(root, '.ralph/prds/auth/progress.md'));
  });

  it('reads a directory holding a prd file as that file', async () => {
    const md = await write('plan/prd.md');
    const target = await resolveTarget(root, path.join(root, 'plan'));
    expect(target.taskPath).toBe(md);
  });

  it('resolves a spec directory, with progress beside it', async () => {
    await write('specs/epic-1/story-1.1-setup.md');
    const expected = {
      name: path
        .basename(root)
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .concat('-specs'),
      format: 'spec-dir',
      taskPath: path.join(root, 'specs'),
      progressPath: path.join(root, 'progress.md'),
    };
    expect(await resolveTarget(root, path.join(root, 'specs'))).toMatchObject(expected);
    await write('progress.txt');
    expect(await resolveTarget(root, root)).toMatchObject({
      ...expected,
      progressPath: path.join(root, 'progress.txt'),
    });
  });

  it('recognises a spec directory by its epic folders', async () => {
    await write('stories/epic-2/story-2.1-x.md');
    const target = await resolveTarget(root, 'stories', { cwd: root });
    expect(target.format).toBe('spec-dir');
    expect(target.taskPath).toBe(path.join(root, 'stories'));
  });

  it('rejects a directory with no task file in it', async () => {
    await write('src/index.ts');
    const error = await usageError(resolveTarget(root, path.join(root, 'src')));
    expect(text(error)).toContain('prd.md');
  });

  it('rejects files that are not json or markdown', async () => {
    const file = await write('tasks.yaml');
    await usageError(resolveTarget(root, file));
  });

  it('never treats a path-like target as a PRD name', async () => {
    await write('.ralph/prds/x/prd.md');
    const outside = await write('x/prd.json', '{}');
    const target = await resolveTarget(root, '../x', { cwd: path.join(root, 'x') });
    expect(target.taskPath).toBe(outside);
    expect(target.name).toBe('x-prd');
    await usageError(resolveTarget(root, '../missing', { cwd: root }));
  });
});

describe('resolveTarget refuses a target no file system can hold', () => {
  it('a 300-character name is a usage error that says so, not ENAMETOOLONG', async () => {
    const error = await usageError(resolveTarget(root, 'x'.repeat(300)));
    expect(text(error)).toMatch(/too long to be a PRD name or a path/);
    expect(text(error)).toMatch(/at most 255 bytes/);
    await usageError(resolveTarget(root, `dir/${'y'.repeat(300)}.json`));
  });

  it('a NUL character is a usage error', async () => {
    expect(text(await usageError(resolveTarget(root, 'a\u0000b')))).toMatch(/NUL/);
  });
});
