import { mkdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { parsePorcelainZ, statusPorcelain } from './status.js';

describe('parsePorcelainZ', () => {
  it('parses plain entries, keeping leading spaces in codes', () => {
    expect(parsePorcelainZ(' M a.txt\0?? new file.txt\0D  gone\0')).toEqual([
      { code: ' M', path: 'a.txt' },
      { code: '??', path: 'new file.txt' },
      { code: 'D ', path: 'gone' },
    ]);
  });

  it('reads the source path that follows a rename', () => {
    expect(parsePorcelainZ('R  new.txt\0old.txt\0 M b\0')).toEqual([
      { code: 'R ', path: 'new.txt', from: 'old.txt' },
      { code: ' M', path: 'b' },
    ]);
  });

  it('keeps names with newlines and arrows intact', () => {
    expect(parsePorcelainZ('?? a\nb -> c\0')).toEqual([{ code: '??', path: 'a\nb -> c' }]);
  });

  it('returns nothing for empty output', () => {
    expect(parsePorcelainZ('')).toEqual([]);
  });
});

describe('statusPorcelain', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('lists modified, deleted, staged and every untracked file but not ignored ones', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { '.gitignore': 'build/\n', 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    expect(await statusPorcelain(repo.dir)).toEqual([]);
    await repo.write('a.txt', 'changed');
    await unlink(path.join(repo.dir, 'b.txt'));
    await repo.write('c.txt', 'staged');
    await repo.git('add', 'c.txt');
    await repo.write('dir/deep/new.txt', 'n');
    await repo.write('build/out.js', 'ignored');
    const entries = await statusPorcelain(repo.dir);
    expect(entries.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { code: ' M', path: 'a.txt' },
      { code: ' D', path: 'b.txt' },
      { code: 'M ', path: 'c.txt' },
      { code: '??', path: 'dir/deep/new.txt' },
    ]);
  });

  it('reports paths from the root when run in a subfolder', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'x.txt': 'x' });
    await mkdir(path.join(repo.dir, 'sub'));
    await repo.write('top.txt', 't');
    expect(await statusPorcelain(path.join(repo.dir, 'sub'))).toEqual([{ code: '??', path: 'top.txt' }]);
  });

  it('treats an ignored-only change as clean', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { '.gitignore': '.ralph/runs/\n' });
    await repo.write('.ralph/runs/main/state.json', '{}');
    expect(await statusPorcelain(repo.dir)).toEqual([]);
    await rm(path.join(repo.dir, '.ralph'), { recursive: true });
  });
});
