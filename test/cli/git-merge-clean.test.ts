/** `ralph merge`, `ralph clean` and `ralph list` on PRD worktrees, run through the built CLI in real repositories. */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareWorkspace, type Workspace } from '../../src/run/workspace.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';

const PRD = `${JSON.stringify(
  {
    project: 'Demo',
    userStories: [
      { id: 'US-001', title: 'Greet', acceptanceCriteria: ['greets'], priority: 1, passes: false },
    ],
  },
  null,
  2,
)}\n`;

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** A project with the PRD `demo` written (not committed) in the main checkout and its worktree made. */
async function projectWithWorktree(name = 'demo'): Promise<{ r: GitFixture; ws: Workspace }> {
  const r = await createGitFixture({
    files: { 'README.md': '# demo\n', '.ralph/.gitignore': 'runs/\nworktrees/\n' },
  });
  repo = r;
  await r.write(`.ralph/prds/${name}/prd.json`, PRD);
  const ws = await prepareWorkspace({
    root: r.dir,
    name,
    prd: {},
    taskPath: join(r.dir, `.ralph/prds/${name}/prd.json`),
    progressPath: join(r.dir, `.ralph/prds/${name}/progress.md`),
    mode: 'worktree',
  });
  return { r, ws };
}

/** Commits in the worktree, as the loop would. */
async function commitIn(ws: Workspace, r: GitFixture, file: string, content: string, message: string) {
  await r.write(join('.ralph', 'worktrees', 'demo', file), content);
  await r.git('-C', ws.cwd, 'add', '-A');
  await r.git('-C', ws.cwd, 'commit', '-q', '-m', message);
  return r.git('-C', ws.cwd, 'rev-parse', 'HEAD');
}

const ralph = (r: GitFixture, ...args: string[]) => runRalph(args, { cwd: r.dir });

describe('ralph merge', () => {
  it('merges the PRD branch into main with a merge commit, taking over the task file', async () => {
    const { r, ws } = await projectWithWorktree();
    const base = await r.head();
    const tip = await commitIn(ws, r, 'greet.txt', 'hello\n', 'feat: US-001 - Add greeting');
    await r.write('.ralph/worktrees/demo/.ralph/prds/demo/prd.json', PRD.replace('Demo', 'Demo (done)'));
    await r.git('-C', ws.cwd, 'commit', '-qam', 'chore(ralph): US-001 passed');
    // No name: the only worktree.
    const result = await ralph(r, 'merge');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/merged ralph\/demo into main/);
    expect((await r.git('rev-list', '--parents', '-n', '1', 'HEAD')).split(' ')).toHaveLength(3);
    expect(await r.git('log', '-1', '--format=%s')).toBe("Merge branch 'ralph/demo'");
    expect(await r.git('merge-base', '--is-ancestor', tip, 'HEAD').then(() => true)).toBe(true);
    expect(await r.git('rev-parse', 'HEAD~1')).toBe(base);
    expect(await readFile(join(r.dir, 'greet.txt'), 'utf8')).toBe('hello\n');
    expect(await readFile(join(r.dir, '.ralph/prds/demo/prd.json'), 'utf8')).toContain('Demo (done)');
    expect(await r.git('status', '--porcelain')).toBe('');
  });

  it('on a conflict lists the files, aborts, exits 1 and leaves both branches intact', async () => {
    const { r, ws } = await projectWithWorktree();
    const theirs = await commitIn(ws, r, 'README.md', '# theirs\n', 'feat: change readme');
    await r.write('README.md', '# ours\n');
    await r.git('commit', '-qam', 'docs: our readme');
    const ours = await r.head();
    const result = await ralph(r, 'merge', 'demo');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/conflict/);
    expect(result.stderr).toMatch(/conflict: README\.md/);
    expect(await r.head()).toBe(ours);
    expect(await r.git('rev-parse', 'ralph/demo')).toBe(theirs);
    expect(existsSync(join(r.dir, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(await readFile(join(r.dir, 'README.md'), 'utf8')).toBe('# ours\n');
    // Only the user's own untracked task file, put back as it was.
    expect(await r.git('status', '--porcelain')).toBe('?? .ralph/prds/');
    expect(await readFile(join(r.dir, '.ralph/prds/demo/prd.json'), 'utf8')).toBe(PRD);
  });

  it('refuses (exit 2) when the main checkout is not on the base branch', async () => {
    const { r, ws } = await projectWithWorktree();
    await commitIn(ws, r, 'greet.txt', 'hello\n', 'feat: greet');
    await r.git('switch', '-q', '-c', 'elsewhere');
    const result = await ralph(r, 'merge', 'demo');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/came from main.*on elsewhere/);
    expect(await r.git('log', '-1', '--format=%s')).toBe('chore: initial commit');
  });
});

describe('ralph clean', () => {
  it('refuses a worktree with uncommitted work unless --force, and keeps the branch', async () => {
    const { r, ws } = await projectWithWorktree();
    await r.write('.ralph/worktrees/demo/wip.txt', 'unsaved\n');
    const refused = await ralph(r, 'clean', 'demo');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/uncommitted changes/);
    expect(refused.stderr).toMatch(/\?\? wip\.txt/);
    expect(existsSync(join(ws.cwd, 'wip.txt'))).toBe(true);

    const forced = await ralph(r, 'clean', 'demo', '--force');
    expect(forced.exitCode).toBe(0);
    expect(existsSync(ws.cwd)).toBe(false);
    expect(await r.git('worktree', 'list', '--porcelain')).not.toMatch(/worktrees\/demo/);
    expect(await r.git('branch', '--list', 'ralph/demo')).toMatch(/ralph\/demo/);
  });

  it('--delete-branch refuses an unmerged branch, deletes it once merged', async () => {
    const { r, ws } = await projectWithWorktree();
    await commitIn(ws, r, 'greet.txt', 'hello\n', 'feat: greet');
    const refused = await ralph(r, 'clean', 'demo', '--delete-branch');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/not merged/);
    expect(existsSync(ws.cwd)).toBe(true);

    expect((await ralph(r, 'merge', 'demo')).exitCode).toBe(0);
    const cleaned = await ralph(r, 'clean', 'demo', '--delete-branch');
    expect(cleaned.stderr).toBe('');
    expect(cleaned.exitCode).toBe(0);
    expect(existsSync(ws.cwd)).toBe(false);
    expect(await r.git('branch', '--list', 'ralph/demo')).toBe('');
  });

  it('--delete-branch --force deletes an unmerged branch', async () => {
    const { r, ws } = await projectWithWorktree();
    await commitIn(ws, r, 'greet.txt', 'hello\n', 'feat: greet');
    const result = await ralph(r, 'clean', 'demo', '--delete-branch', '--force');
    expect(result.exitCode).toBe(0);
    expect(existsSync(ws.cwd)).toBe(false);
    expect(await r.git('branch', '--list', 'ralph/demo')).toBe('');
  });
});

describe('ralph list', () => {
  it('shows a PRD’s worktree and lists orphaned worktrees', async () => {
    const { r } = await projectWithWorktree();
    // A worktree whose PRD is gone, one whose folder is gone, and a stray folder.
    await r.git('worktree', 'add', '-q', '-b', 'ralph/old', '.ralph/worktrees/old');
    await r.git('worktree', 'add', '-q', '-b', 'ralph/gone', '.ralph/worktrees/gone');
    await rm(join(r.dir, '.ralph/worktrees/gone'), { recursive: true, force: true });
    await r.write('.ralph/worktrees/stray/file.txt', 'x');
    const result = await ralph(r, 'list');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^demo\s+0\/1\s+Demo\s+\[worktree on ralph\/demo\]$/m);
    expect(result.stdout).toMatch(/orphaned worktrees/);
    expect(result.stdout).toMatch(/^ {2}gone .*ralph\/gone .*folder missing/m);
    expect(result.stdout).toMatch(/^ {2}old .*ralph\/old .*no PRD/m);
    expect(result.stdout).toMatch(/^ {2}stray .*not a registered git worktree/m);
    expect(result.stdout).not.toMatch(/^ {2}demo /m);

    const json = JSON.parse((await ralph(r, 'list', '--json')).stdout) as {
      name: string;
      worktree: unknown;
    }[];
    expect(json).toEqual([
      expect.objectContaining({
        name: 'demo',
        worktree: { path: expect.stringContaining('worktrees/demo'), branch: 'ralph/demo' },
      }),
    ]);
  });
});
