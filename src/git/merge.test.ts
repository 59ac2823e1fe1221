import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { mergeNoFf, setAside, untrackedCopiesOf } from './merge.js';
import { headSha } from './repo.js';
import { statusPorcelain } from './status.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('mergeNoFf', () => {
  it('makes a merge commit even when a fast-forward was possible', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    const work = await repo.commit('feat: work', { 'b.txt': 'b' });
    await repo.git('switch', '--quiet', 'main');
    const result = await mergeNoFf(repo.dir, 'ralph/x');
    expect(result.kind).toBe('merged');
    const head = await headSha(repo.dir);
    expect(result).toEqual({ kind: 'merged', sha: head });
    expect((await repo.git('rev-list', '--parents', '-n', '1', 'HEAD')).split(' ').slice(1)).toEqual([
      base,
      work,
    ]);
    expect(await repo.git('log', '-1', '--format=%s')).toBe("Merge branch 'ralph/x'");
  });

  it('reports up-to-date without a commit', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.git('branch', 'ralph/x');
    const before = await headSha(repo.dir);
    expect(await mergeNoFf(repo.dir, 'ralph/x')).toEqual({ kind: 'up-to-date' });
    expect(await headSha(repo.dir)).toBe(before);
  });

  it('lists conflicted files and aborts, leaving both branches and the tree as they were', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'base\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    const theirs = await repo.commit('theirs', { 'a.txt': 'theirs\n', 'c.txt': 'theirs\n' });
    await repo.git('switch', '--quiet', 'main');
    const ours = await repo.commit('ours', { 'a.txt': 'ours\n', 'c.txt': 'ours\n' });
    expect(await mergeNoFf(repo.dir, 'ralph/x')).toEqual({ kind: 'conflict', files: ['a.txt', 'c.txt'] });
    expect(await headSha(repo.dir)).toBe(ours);
    expect(await repo.git('rev-parse', 'ralph/x')).toBe(theirs);
    expect(await statusPorcelain(repo.dir)).toEqual([]);
    expect(await readFile(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('ours\n');
  });
});

describe('mergeNoFf with the task file committed on both sides', () => {
  it('takes the branch version of a file committed here after the branch took a copy (add/add)', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    await repo.commit('chore(ralph): add x task file', { 'prd.md': 'US-001 todo\n', cfg: 'c\n' });
    const theirs = await repo.commit('feat: US-001', { 'prd.md': 'US-001 done\n', 'b.txt': 'b' });
    await repo.git('switch', '--quiet', 'main');
    // The user commits what ralph init and they wrote, as the branch took it.
    await repo.commit('add ralph files', { 'prd.md': 'US-001 todo\n', cfg: 'c\n' });
    const result = await mergeNoFf(repo.dir, 'ralph/x');
    expect(result).toEqual({ kind: 'merged', sha: await headSha(repo.dir) });
    expect((await repo.git('rev-list', '--parents', '-n', '1', 'HEAD')).split(' ')[2]).toBe(theirs);
    expect(await readFile(path.join(repo.dir, 'prd.md'), 'utf8')).toBe('US-001 done\n');
    expect(await statusPorcelain(repo.dir)).toEqual([]);
  });

  it('still stops on a file committed here in a form the branch never had', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    await repo.commit('chore(ralph): add x task file', { 'prd.md': 'US-001 todo\n' });
    await repo.commit('feat: US-001', { 'prd.md': 'US-001 done\n' });
    await repo.git('switch', '--quiet', 'main');
    const ours = await repo.commit('add ralph files', { 'prd.md': 'US-001 todo\nUS-002 todo\n' });
    expect(await mergeNoFf(repo.dir, 'ralph/x')).toEqual({ kind: 'conflict', files: ['prd.md'] });
    expect(await headSha(repo.dir)).toBe(ours);
    expect(await statusPorcelain(repo.dir)).toEqual([]);
  });
});

describe('untrackedCopiesOf / setAside', () => {
  it('counts an unstaged edit of a tracked file as redundant when the branch has that version', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'prd.md': 'v1\n', 'mine.txt': 'm\n' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    await repo.commit('take edits', { 'prd.md': 'v2\n' });
    await repo.commit('done', { 'prd.md': 'v3\n' });
    await repo.git('switch', '--quiet', 'main');
    await repo.write('prd.md', 'v2\n');
    await repo.write('mine.txt', 'edited\n');
    expect(await untrackedCopiesOf(repo.dir, 'ralph/x')).toEqual({ redundant: ['prd.md'], blocking: [] });
    const putBack = await setAside(repo.dir, ['prd.md']);
    expect(await readFile(path.join(repo.dir, 'prd.md'), 'utf8')).toBe('v1\n');
    await putBack();
    expect(await readFile(path.join(repo.dir, 'prd.md'), 'utf8')).toBe('v2\n');
  });

  it('tells redundant copies of files the branch added from ones that would be lost', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', { 'a.txt': 'a' });
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    await repo.commit('add task file', { 'prd.json': '{"v":1}' });
    await repo.commit('pass', { 'prd.json': '{"v":2}', 'other.txt': 'theirs' });
    await repo.git('switch', '--quiet', 'main');
    await repo.write('prd.json', '{"v":1}');
    await repo.write('other.txt', 'mine');
    await repo.write('unrelated.txt', 'u');
    expect(await untrackedCopiesOf(repo.dir, 'ralph/x')).toEqual({
      redundant: ['prd.json'],
      blocking: ['other.txt'],
    });

    const putBack = await setAside(repo.dir, ['prd.json']);
    expect((await statusPorcelain(repo.dir)).map((e) => e.path).sort()).toEqual([
      'other.txt',
      'unrelated.txt',
    ]);
    await putBack();
    expect(await readFile(path.join(repo.dir, 'prd.json'), 'utf8')).toBe('{"v":1}');
  });

  it('puts a file back even when its folder was removed meanwhile', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.write('.ralph/prds/x/prd.json', 'mine');
    const putBack = await setAside(repo.dir, ['.ralph/prds/x/prd.json']);
    await rm(path.join(repo.dir, '.ralph'), { recursive: true });
    await putBack();
    expect(await readFile(path.join(repo.dir, '.ralph/prds/x/prd.json'), 'utf8')).toBe('mine');
  });
});
