import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { RalphError } from '../core/errors.js';
import { headSha } from '../git/repo.js';
import { statusPorcelain } from '../git/status.js';
import { checkStartable } from './tree-guard.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function dirtyRepo(): Promise<TempRepo> {
  const r = await makeTempRepo();
  await r.commit('base', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  await r.write('a.txt', 'edited\n');
  await r.write('notes/new.txt', 'mine\n');
  await r.write('.ralph/prds/x/prd.json', '{}');
  return r;
}

describe('checkStartable', () => {
  it('passes a clean tree, reporting only the tool files', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.write('.ralph/prds/x/prd.json', '{}');
    const result = await checkStartable(repo.dir);
    expect(result.stashed).toBeNull();
    expect(result.toolFiles.map((e) => e.path)).toEqual(['.ralph/prds/x/prd.json']);
  });

  it('refuses a dirty tree with exit 2, listing the files, and changes nothing', async () => {
    repo = await dirtyRepo();
    const error = await checkStartable(repo.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RalphError);
    if (!(error instanceof RalphError)) return;
    expect(error.exitCode).toBe(2);
    expect(error.details).toEqual([' M a.txt', '?? notes/new.txt']);
    expect(await readFile(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('edited\n');
  });

  it('with allowDirty stashes exactly the user changes, which git stash pop brings back', async () => {
    repo = await dirtyRepo();
    const head = await headSha(repo.dir);
    const result = await checkStartable(repo.dir, { allowDirty: true, name: 'x' });
    expect(result.stashed).toMatchObject({ files: ['a.txt', 'notes/new.txt'] });
    expect(result.stashed?.message).toContain('before running x');
    expect(await repo.git('rev-parse', 'stash@{0}')).toBe(result.stashed?.sha);
    // Only the tool's file is left, and nothing was committed.
    expect((await statusPorcelain(repo.dir)).map((e) => e.path)).toEqual(['.ralph/prds/x/prd.json']);
    expect(await headSha(repo.dir)).toBe(head);
    expect(existsSync(path.join(repo.dir, 'notes/new.txt'))).toBe(false);

    await repo.git('stash', 'pop', '--quiet');
    expect(await readFile(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('edited\n');
    expect(await readFile(path.join(repo.dir, 'notes/new.txt'), 'utf8')).toBe('mine\n');
  });

  it('counts the caller’s tool paths as the tool’s own', async () => {
    repo = await dirtyRepo();
    const result = await checkStartable(repo.dir, {
      isToolPath: (p) => p.startsWith('.ralph/') || p === 'a.txt' || p.startsWith('notes/'),
    });
    expect(result.stashed).toBeNull();
    expect(result.toolFiles).toHaveLength(3);
  });
});
