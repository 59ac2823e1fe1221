import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { headSha } from './repo.js';
import { cleanUntracked, resetHardTo, restoreTo } from './reset.js';
import { statusPorcelain } from './status.js';

describe('rollback', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  const exists = (file: string) => existsSync(path.join(repo?.dir ?? '', file));

  it('resetHardTo drops commits and tracked edits but keeps untracked files', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'base' });
    await repo.commit('agent work', { 'a.txt': 'agent', 'b.txt': 'b' });
    await repo.write('a.txt', 'dirty');
    await repo.write('untracked.txt', 'u');
    await resetHardTo(repo.dir, base);
    expect(await headSha(repo.dir)).toBe(base);
    expect(await readFile(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('base');
    expect(exists('b.txt')).toBe(false);
    expect(exists('untracked.txt')).toBe(true);
  });

  it('cleanUntracked removes untracked files and folders, never ignored ones or .ralph/', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { '.gitignore': 'node_modules/\n*.log\n' });
    await repo.write('stray.txt', 's');
    await repo.write('newdir/deep/file.ts', 'f');
    await repo.write('node_modules/pkg/index.js', 'kept');
    await repo.write('debug.log', 'kept');
    // Not ignored by this project's .gitignore, still never touched.
    await repo.write('.ralph/runs/main/state.json', '{}');
    await repo.write('.ralph/prds/main/notes.md', 'n');
    await repo.write('sub/inner.txt', 'x');
    await cleanUntracked(path.join(repo.dir, 'newdir'));
    expect(exists('stray.txt')).toBe(false);
    expect(exists('newdir/deep/file.ts')).toBe(false);
    expect(exists('sub/inner.txt')).toBe(false);
    expect(exists('node_modules/pkg/index.js')).toBe(true);
    expect(exists('debug.log')).toBe(true);
    expect(exists('.ralph/runs/main/state.json')).toBe(true);
    expect(exists('.ralph/prds/main/notes.md')).toBe(true);
  });

  it('restoreTo leaves exactly the base tree', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    await repo.commit('work', { 'a.txt': 'changed', 'c.txt': 'c' });
    await repo.write('d.txt', 'd');
    await restoreTo(repo.dir, base);
    expect(await statusPorcelain(repo.dir)).toEqual([]);
    expect(await headSha(repo.dir)).toBe(base);
    expect(exists('c.txt')).toBe(false);
  });
});
