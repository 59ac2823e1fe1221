import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentBranch, headSha } from './repo.js';
import { parseStatusV2, repoStatus } from './repo-status.js';
import { statusPorcelain } from './status.js';
import { makeTempRepo, type TempRepo } from './testing.js';

const byPath = <T extends { path: string }>(entries: T[]): T[] =>
  [...entries].sort((a, b) => a.path.localeCompare(b.path));

describe('parseStatusV2', () => {
  it('reads the headers and every kind of record, with v1 codes', () => {
    const output = [
      '# branch.oid 1234abcd',
      '# branch.head feature/x y',
      '# branch.upstream origin/feature/x y',
      '# branch.ab +1 -2',
      '1 .M N... 100644 100644 100644 aaa bbb with space.txt',
      '1 A. N... 000000 100644 100644 000 ccc added',
      '2 R. N... 100644 100644 100644 ddd eee R100 new name',
      'old name',
      'u UU N... 100644 100644 100644 100644 f1 f2 f3 conflicted',
      '? dir/untracked file',
      '! ignored',
      '',
    ].join('\0');
    expect(parseStatusV2(output)).toEqual({
      head: '1234abcd',
      branch: 'feature/x y',
      entries: [
        { code: ' M', path: 'with space.txt' },
        { code: 'A ', path: 'added' },
        { code: 'R ', path: 'new name', from: 'old name' },
        { code: 'UU', path: 'conflicted' },
        { code: '??', path: 'dir/untracked file' },
      ],
    });
  });

  it('has no head before the first commit and no branch when detached', () => {
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0')).toEqual({
      head: null,
      branch: 'main',
      entries: [],
    });
    expect(parseStatusV2('# branch.oid abc\0# branch.head (detached)\0').branch).toBeNull();
  });
});

describe('repoStatus', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  /** One process must say what headSha, currentBranch and statusPorcelain say. */
  async function expectSameAsSeparateCommands(cwd: string): Promise<void> {
    const status = await repoStatus(cwd);
    expect(status.head).toBe(await headSha(cwd));
    expect(status.branch).toBe(await currentBranch(cwd));
    expect(byPath(status.entries)).toEqual(byPath(await statusPorcelain(cwd)));
  }

  it('agrees with the separate commands on an unborn branch', async () => {
    repo = await makeTempRepo();
    await repo.write('first.txt', 'x');
    await expectSameAsSeparateCommands(repo.dir);
    expect((await repoStatus(repo.dir)).branch).toBe('main');
  });

  it('agrees with them on changes of every kind, odd names included, from a subfolder too', async () => {
    repo = await makeTempRepo();
    await repo.commit('base', {
      '.gitignore': 'build/\n',
      'a.txt': 'a',
      'b.txt': 'b',
      'c.txt': 'c',
      'move me.txt': 'm',
      'sub/keep.txt': 'k',
    });
    await repo.write('a.txt', 'changed');
    await unlink(path.join(repo.dir, 'b.txt'));
    await repo.write('c.txt', 'staged');
    await repo.git('add', 'c.txt');
    await repo.git('mv', 'move me.txt', 'moved here.txt');
    await repo.write('dir/deep/new file.txt', 'n');
    await repo.write('line\nbreak.txt', 'n');
    await repo.write('ünïcode.txt', 'u');
    await repo.write('build/out.js', 'ignored');
    await expectSameAsSeparateCommands(repo.dir);
    await expectSameAsSeparateCommands(path.join(repo.dir, 'sub'));
    expect((await repoStatus(repo.dir)).entries.length).toBeGreaterThanOrEqual(8);
  });

  it('agrees with them on a detached HEAD and on a merge conflict', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'f.txt': 'base\n' });
    await repo.git('checkout', '--quiet', '-b', 'other');
    await repo.commit('other', { 'f.txt': 'other\n' });
    await repo.git('checkout', '--quiet', 'main');
    await repo.commit('main', { 'f.txt': 'main\n' });
    await repo.git('merge', '--quiet', 'other').catch(() => undefined);
    await expectSameAsSeparateCommands(repo.dir);
    expect((await repoStatus(repo.dir)).entries).toEqual([{ code: 'UU', path: 'f.txt' }]);
    await repo.git('merge', '--abort');
    await repo.git('checkout', '--quiet', base);
    await expectSameAsSeparateCommands(repo.dir);
    expect((await repoStatus(repo.dir)).branch).toBeNull();
  });
});
