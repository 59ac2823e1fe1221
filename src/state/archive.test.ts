import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { fileAtRevision } from '../git/file-at-revision.js';
import { archiveIfBranchChanged, lastBranchPath } from './archive.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const DAY = new Date('2025-03-04T10:00:00Z');
const OLD_PROGRESS = '## Codebase Patterns\n- use pnpm\n\n## 2025-03-01 - US-001: Old\n- did it\n---\n';

async function project() {
  const r = await makeTempRepo();
  const paths = {
    root: r.dir,
    name: 'scripts-prd',
    taskPath: path.join(r.dir, 'prd.json'),
    progressPath: path.join(r.dir, 'progress.txt'),
    runDir: path.join(r.dir, '.ralph', 'runs', 'scripts-prd'),
    now: DAY,
  };
  return { r, paths };
}

describe('archiveIfBranchChanged', () => {
  it('remembers the branch on the first run and archives nothing while it stays the same', async () => {
    const { r, paths } = await project();
    repo = r;
    await r.write('progress.txt', OLD_PROGRESS);
    expect(await archiveIfBranchChanged({ ...paths, branch: 'ralph/a' })).toBeNull();
    expect(await readFile(lastBranchPath(paths.runDir), 'utf8')).toBe('ralph/a\n');
    expect(await archiveIfBranchChanged({ ...paths, branch: 'ralph/a' })).toBeNull();
    expect(existsSync(path.join(r.dir, '.ralph', 'archive'))).toBe(false);
    expect(await readFile(paths.progressPath, 'utf8')).toBe(OLD_PROGRESS);
  });

  it('on a new branch archives the old task file, progress and run state, and restarts progress keeping its patterns', async () => {
    const { r, paths } = await project();
    repo = r;
    await r.commit('base');
    await r.git('switch', '--quiet', '-c', 'ralph/old-feature');
    await r.commit('old feature', {
      'prd.json': '{"branchName":"ralph/old-feature"}\n',
      'progress.txt': OLD_PROGRESS,
    });
    await archiveIfBranchChanged({ ...paths, branch: 'ralph/old-feature' });
    await mkdir(paths.runDir, { recursive: true });
    await writeFile(path.join(paths.runDir, 'state.json'), '{"old":true}\n');
    // The user drops in the next feature's PRD.
    await r.write('prd.json', '{"branchName":"ralph/new-feature"}\n');

    const result = await archiveIfBranchChanged({
      ...paths,
      branch: 'ralph/new-feature',
      readPrevious: (branch, file) => fileAtRevision(r.dir, branch, file),
    });
    const dir = path.join(r.dir, '.ralph', 'archive', '2025-03-04-old-feature');
    expect(result).toEqual({
      previousBranch: 'ralph/old-feature',
      dir,
      files: [path.join(dir, 'prd.json'), path.join(dir, 'progress.txt'), path.join(dir, 'state.json')],
    });
    expect(await readFile(path.join(dir, 'prd.json'), 'utf8')).toBe('{"branchName":"ralph/old-feature"}\n');
    expect(await readFile(path.join(dir, 'progress.txt'), 'utf8')).toBe(OLD_PROGRESS);
    expect(await readFile(path.join(dir, 'state.json'), 'utf8')).toBe('{"old":true}\n');
    expect(existsSync(path.join(paths.runDir, 'state.json'))).toBe(false);
    expect(await readFile(paths.progressPath, 'utf8')).toBe('## Codebase Patterns\n- use pnpm\n');
    expect(await readFile(paths.taskPath, 'utf8')).toBe('{"branchName":"ralph/new-feature"}\n');
    expect(await readFile(lastBranchPath(paths.runDir), 'utf8')).toBe('ralph/new-feature\n');
  });

  it('without the old branch keeps the progress from disk, skips the task file, and never overwrites an archive', async () => {
    const { r, paths } = await project();
    repo = r;
    await r.write('progress.txt', OLD_PROGRESS);
    await r.write('prd.json', '{}');
    await archiveIfBranchChanged({ ...paths, branch: 'ralph/one' });
    await archiveIfBranchChanged({ ...paths, branch: 'ralph/two' });
    await r.write('progress.txt', 'second\n');
    const again = await archiveIfBranchChanged({ ...paths, branch: 'ralph/one' });
    expect(again?.dir).toBe(path.join(r.dir, '.ralph', 'archive', '2025-03-04-two'));
    await archiveIfBranchChanged({ ...paths, branch: 'ralph/two' });
    await r.write('progress.txt', 'third\n');
    const third = await archiveIfBranchChanged({ ...paths, branch: 'ralph/x' });
    expect(third?.dir).toBe(path.join(r.dir, '.ralph', 'archive', '2025-03-04-two-2'));
    expect(await readdir(path.join(r.dir, '.ralph', 'archive', '2025-03-04-one'))).toEqual(['progress.txt']);
    expect(
      await readFile(path.join(r.dir, '.ralph', 'archive', '2025-03-04-two-2', 'progress.txt'), 'utf8'),
    ).toBe('third\n');
  });

  it('does nothing without a branch', async () => {
    const { r, paths } = await project();
    repo = r;
    expect(await archiveIfBranchChanged({ ...paths, branch: null })).toBeNull();
    expect(existsSync(lastBranchPath(paths.runDir))).toBe(false);
  });

  it('compares the branch exactly: a name with a trailing space is the same branch on every run', async () => {
    const { r, paths } = await project();
    repo = r;
    await r.write('progress.txt', OLD_PROGRESS);
    expect(await archiveIfBranchChanged({ ...paths, branch: 'ralph/a ' })).toBeNull();
    expect(await archiveIfBranchChanged({ ...paths, branch: 'ralph/a ' })).toBeNull();
    expect(existsSync(path.join(r.dir, '.ralph', 'archive'))).toBe(false);
    expect(await readFile(paths.progressPath, 'utf8')).toBe(OLD_PROGRESS);
  });

  it('archives the progress on disk too when it has entries the old branch never committed', async () => {
    const { r, paths } = await project();
    repo = r;
    await r.commit('base');
    await r.git('switch', '--quiet', '-c', 'ralph/old-feature');
    await r.commit('old feature', { 'progress.txt': OLD_PROGRESS });
    await archiveIfBranchChanged({ ...paths, branch: 'ralph/old-feature' });
    const onDisk = `${OLD_PROGRESS}\n## 2025-03-02 - US-002: Not committed yet\n- did more\n---\n`;
    await r.write('progress.txt', onDisk);

    const result = await archiveIfBranchChanged({
      ...paths,
      branch: 'ralph/new-feature',
      readPrevious: (branch, file) => fileAtRevision(r.dir, branch, file),
    });
    const dir = path.join(r.dir, '.ralph', 'archive', '2025-03-04-old-feature');
    expect(result?.files).toEqual([
      path.join(dir, 'progress.txt'),
      path.join(dir, 'progress.working-copy.txt'),
    ]);
    expect(await readFile(path.join(dir, 'progress.txt'), 'utf8')).toBe(OLD_PROGRESS);
    expect(await readFile(path.join(dir, 'progress.working-copy.txt'), 'utf8')).toBe(onDisk);
    expect(await readFile(paths.progressPath, 'utf8')).toBe('## Codebase Patterns\n- use pnpm\n');
  });
});
