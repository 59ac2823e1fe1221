import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { RalphError, UsageError } from '../core/errors.js';
import type { RunEvent } from '../events/run-event.js';
import { ralphBranch } from '../git/branches.js';
import { currentBranch } from '../git/repo.js';
import { statusPorcelain } from '../git/status.js';
import { prepareWorkspace, startWorkspace, type WorkspaceOptions, workspaceMode } from './workspace.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const PRD = '{"project":"Demo","userStories":[]}\n';

/** A project whose PRD `demo` lives in `.ralph/prds/demo/`, committed or not. */
async function project(options: { committed: boolean }): Promise<TempRepo> {
  const r = await makeTempRepo();
  await r.commit('base', { 'README.md': '# demo\n', '.ralph/.gitignore': 'runs/\nworktrees/\n' });
  await r.write('.ralph/prds/demo/prd.json', PRD);
  await r.write('.ralph/prds/demo/progress.md', '## Codebase Patterns\n');
  if (options.committed) await r.commit('add PRD');
  return r;
}

function opts(r: TempRepo, extra: Partial<WorkspaceOptions> = {}): WorkspaceOptions {
  return {
    root: r.dir,
    name: 'demo',
    prd: {},
    taskPath: path.join(r.dir, '.ralph/prds/demo/prd.json'),
    progressPath: path.join(r.dir, '.ralph/prds/demo/progress.md'),
    mode: 'worktree',
    ...extra,
  };
}

const wt = (r: TempRepo) => path.join(r.dir, '.ralph', 'worktrees', 'demo');

describe('prepareWorkspace: worktree', () => {
  it('creates .ralph/worktrees/<name> on ralph/<name> from main, with the PRD committed there, main untouched', async () => {
    repo = await project({ committed: false });
    const mainHead = await repo.git('rev-parse', 'HEAD');
    const events: RunEvent[] = [];
    const ws = await prepareWorkspace(opts(repo, { emit: (e) => events.push(e) }));
    expect(ws).toMatchObject({
      mode: 'worktree',
      cwd: wt(repo),
      branch: 'ralph/demo',
      base: 'main',
      created: true,
    });
    expect(ws.taskPath).toBe(path.join(wt(repo), '.ralph/prds/demo/prd.json'));
    expect(ws.progressPath).toBe(path.join(wt(repo), '.ralph/prds/demo/progress.md'));
    expect(await readFile(ws.taskPath, 'utf8')).toBe(PRD);
    expect(await currentBranch(ws.cwd)).toBe('ralph/demo');
    // The uncommitted PRD was committed on the branch, not in the main checkout.
    expect(await repo.git('log', '-1', '--format=%s', 'ralph/demo')).toBe('chore(ralph): add demo task file');
    expect(await repo.git('rev-parse', 'ralph/demo~1')).toBe(mainHead);
    expect(await statusPorcelain(ws.cwd)).toEqual([]);
    expect(await repo.git('rev-parse', 'main')).toBe(mainHead);
    expect(await currentBranch(repo.dir)).toBe('main');
    expect(await ralphBranch(repo.dir, 'ralph/demo')).toEqual({
      branch: 'ralph/demo',
      name: 'demo',
      base: 'main',
    });
    expect(events.map((e) => e.type)).toEqual(['worktree-created', 'task-file-copied']);
  });

  it('adds no commit when the PRD is already committed on the base branch', async () => {
    repo = await project({ committed: true });
    const ws = await prepareWorkspace(opts(repo));
    expect(await repo.git('rev-parse', 'ralph/demo')).toBe(await repo.git('rev-parse', 'main'));
    expect(await readFile(ws.taskPath, 'utf8')).toBe(PRD);
  });

  it('reuses the worktree, keeps its live task file, and runs setup only once', async () => {
    repo = await project({ committed: false });
    const setup = 'echo ran >> "$(git rev-parse --git-dir)/setup-count"; echo installing deps';
    const first = await prepareWorkspace(opts(repo, { setup }));
    expect(first.setupOutput).toBe('installing deps');
    // The loop marks a story done in the worktree; the main checkout's copy is stale.
    await repo.write('.ralph/worktrees/demo/.ralph/prds/demo/prd.json', '{"live":true}\n');
    const events: RunEvent[] = [];
    const second = await prepareWorkspace(opts(repo, { setup, emit: (e) => events.push(e) }));
    expect(second).toMatchObject({ cwd: first.cwd, branch: 'ralph/demo', created: false });
    expect(second.setupOutput).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['worktree-reused']);
    expect(await readFile(second.taskPath, 'utf8')).toBe('{"live":true}\n');
    const gitDir = path.join(repo.dir, '.git', 'worktrees', 'demo');
    expect(await readFile(path.join(gitDir, 'setup-count'), 'utf8')).toBe('ran\n');
  });

  it('stops on a failing setup with its output, and runs it again next time', async () => {
    repo = await project({ committed: true });
    const setup = 'echo "npm ERR! missing script"; exit 3';
    const error = await prepareWorkspace(opts(repo, { setup })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RalphError);
    if (!(error instanceof RalphError)) return;
    expect(error.message).toContain('exit 3');
    expect(error.details).toContain('npm ERR! missing script');
    const events: RunEvent[] = [];
    await expect(prepareWorkspace(opts(repo, { setup, emit: (e) => events.push(e) }))).rejects.toThrow(
      /setup failed/,
    );
    expect(events.map((e) => e.type)).toEqual(['worktree-reused', 'setup-started', 'setup-finished']);
    const ok = await prepareWorkspace(opts(repo, { setup: 'echo fixed' }));
    expect(ok.setupOutput).toBe('fixed');
  });

  it('uses the PRD branchName, and --branch over it', async () => {
    repo = await project({ committed: true });
    const named = await prepareWorkspace(opts(repo, { prd: { branchName: 'feature/login' } }));
    expect(named.branch).toBe('feature/login');
    await repo.git('worktree', 'remove', named.cwd);
    const flag = await prepareWorkspace(
      opts(repo, { prd: { branchName: 'feature/login' }, branch: 'wip/x' }),
    );
    expect(flag.branch).toBe('wip/x');
    expect(await currentBranch(flag.cwd)).toBe('wip/x');
  });

  it('refuses an invalid branch name, and a worktree on another branch', async () => {
    repo = await project({ committed: true });
    await expect(prepareWorkspace(opts(repo, { branch: 'bad..name' }))).rejects.toBeInstanceOf(UsageError);
    expect(existsSync(wt(repo))).toBe(false);
    await prepareWorkspace(opts(repo));
    await expect(prepareWorkspace(opts(repo, { branch: 'other' }))).rejects.toThrow(
      /is on ralph\/demo, not other/,
    );
  });

  it('re-creates a worktree whose folder was deleted, on the existing branch, without overwriting its record', async () => {
    repo = await project({ committed: false });
    const first = await prepareWorkspace(opts(repo));
    await repo.write('.ralph/worktrees/demo/.ralph/prds/demo/prd.json', '{"live":true}\n');
    await repo.git('-C', first.cwd, 'commit', '-qam', 'chore(ralph): US-001 passed');
    const tip = await repo.git('rev-parse', 'ralph/demo');
    await rm(first.cwd, { recursive: true, force: true });
    const again = await prepareWorkspace(opts(repo));
    expect(again.created).toBe(true);
    expect(await repo.git('rev-parse', 'ralph/demo')).toBe(tip);
    expect(await readFile(again.taskPath, 'utf8')).toBe('{"live":true}\n');
  });

  it('refuses a repository without commits with exit 2', async () => {
    repo = await makeTempRepo();
    const error = await prepareWorkspace(opts(repo)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RalphError);
    expect(error instanceof RalphError && error.exitCode).toBe(2);
    expect(existsSync(wt(repo))).toBe(false);
  });

  it('refuses when the branch is checked out elsewhere', async () => {
    repo = await project({ committed: true });
    await repo.git('switch', '--quiet', '-c', 'ralph/demo');
    await expect(prepareWorkspace(opts(repo))).rejects.toThrow(/checked out at/);
  });
});

describe('prepareWorkspace: branch and in place', () => {
  it('branch mode creates the branch from HEAD in place and records where it came from', async () => {
    repo = await project({ committed: true });
    await repo.git('switch', '--quiet', '-c', 'dev');
    const ws = await prepareWorkspace(opts(repo, { mode: 'branch' }));
    expect(ws).toMatchObject({
      mode: 'branch',
      cwd: repo.dir,
      branch: 'ralph/demo',
      base: 'dev',
      created: true,
    });
    expect(ws.taskPath).toBe(path.join(repo.dir, '.ralph/prds/demo/prd.json'));
    expect(await currentBranch(repo.dir)).toBe('ralph/demo');
    const again = await prepareWorkspace(opts(repo, { mode: 'branch' }));
    expect(again).toMatchObject({ created: false, base: 'dev' });
    expect(existsSync(wt(repo))).toBe(false);
  });

  it('in place changes nothing', async () => {
    repo = await project({ committed: false });
    const head = await repo.git('rev-parse', 'HEAD');
    const ws = await prepareWorkspace(opts(repo, { mode: 'in-place' }));
    expect(ws).toMatchObject({ mode: 'in-place', cwd: repo.dir, branch: 'main', created: false });
    expect(await repo.git('rev-parse', 'HEAD')).toBe(head);
    expect(await repo.git('branch', '--list', '--format=%(refname:short)')).toBe('main');
  });
});

describe('workspaceMode', () => {
  it('lets the flags win over the config', () => {
    expect(workspaceMode({}, true)).toBe('worktree');
    expect(workspaceMode({}, false)).toBe('in-place');
    expect(workspaceMode({ worktree: true }, false)).toBe('worktree');
    expect(workspaceMode({ worktree: false }, true)).toBe('in-place');
    expect(workspaceMode({ worktree: false, branch: 'x' }, true)).toBe('branch');
    expect(workspaceMode({ branch: 'x' }, true)).toBe('worktree');
  });
});

describe('worktree setup output is the worktree environment', () => {
  it('hides changed and created paths in that worktree, keeping the user excludes file', async () => {
    repo = await project({ committed: true });
    await repo.commit('lock file', { 'lock.json': '{}\n' });
    const userExcludes = path.join(repo.dir, '..', `${path.basename(repo.dir)}-excludes`);
    await writeFile(userExcludes, '*.swp\n');
    await repo.git('config', 'core.excludesFile', userExcludes);
    const setup = 'echo changed > lock.json && mkdir -p out && touch out/a out/b && git add out/a';
    const ws = await prepareWorkspace(opts(repo, { setup }));
    expect(ws.environment).toEqual({ command: setup, changed: ['lock.json'], created: ['out/'] });
    expect(await statusPorcelain(ws.cwd)).toEqual([]);
    // The user's own patterns still apply there; a new file is still seen.
    await writeFile(path.join(ws.cwd, 'notes.swp'), 'x');
    await writeFile(path.join(ws.cwd, 'new.txt'), 'x');
    expect((await statusPorcelain(ws.cwd)).map((e) => e.path)).toEqual(['new.txt']);
    expect(await readFile(path.join(ws.cwd, 'lock.json'), 'utf8')).toBe('changed\n');
    // The main checkout sees its own out/ as before.
    await repo.write('out/mine', 'x');
    expect((await statusPorcelain(repo.dir)).map((e) => e.path)).toEqual(['out/mine']);
  });

  it('hides what a failed setup left, so the rerun starts clean; a reuse still knows the environment', async () => {
    repo = await project({ committed: true });
    await repo.commit('lock file', { 'lock.json': '{}\n' });
    await expect(
      prepareWorkspace(opts(repo, { setup: 'mkdir -p cache && touch cache/x && exit 4' })),
    ).rejects.toThrow(/setup failed \(exit 4\)/);
    const ok = await prepareWorkspace(opts(repo, { setup: 'touch built.txt' }));
    expect(ok.environment).toEqual({
      command: 'touch built.txt',
      changed: [],
      created: ['built.txt', 'cache/'],
    });
    expect(await statusPorcelain(ok.cwd)).toEqual([]);
    const again = await prepareWorkspace(opts(repo, { setup: 'touch built.txt' }));
    expect(again.setupOutput).toBeUndefined();
    expect(again.environment).toEqual(ok.environment);
  });

  it('leaves git alone when setup writes nothing', async () => {
    repo = await project({ committed: true });
    await repo.commit('lock file', { 'lock.json': '{}\n' });
    const ws = await prepareWorkspace(opts(repo, { setup: 'echo nothing to do' }));
    expect(ws.environment).toBeUndefined();
    expect(await repo.git('config', '--get-regexp', '^includeif\\.').catch(() => '')).toBe('');
  });
});

describe('startWorkspace', () => {
  it('archives the previous feature when the PRD names a new branch, then prepares the workspace', async () => {
    repo = await project({ committed: true });
    const runDir = path.join(repo.dir, '.ralph', 'runs', 'demo');
    const start = (branchName: string, events: RunEvent[] = []) =>
      startWorkspace({
        ...opts(repo as TempRepo, { mode: 'in-place', prd: { branchName } }),
        runDir,
        emit: (e) => events.push(e),
      });
    await start('ralph/first');
    await repo.write('.ralph/prds/demo/progress.md', '## Codebase Patterns\n- keep it\n\n## entry\n---\n');
    const again: RunEvent[] = [];
    expect((await start('ralph/first', again)).cwd).toBe(repo.dir);
    expect(again).toEqual([]);

    const events: RunEvent[] = [];
    const ws = await start('ralph/second', events);
    expect(ws.mode).toBe('in-place');
    const archived = events.find((e) => e.type === 'archived');
    expect(archived).toMatchObject({ previousBranch: 'ralph/first' });
    if (archived?.type !== 'archived') return;
    expect(path.basename(archived.dir)).toMatch(/^\d{4}-\d\d-\d\d-first$/);
    expect(await readFile(path.join(archived.dir, 'progress.md'), 'utf8')).toContain('## entry');
    expect(await readFile(path.join(repo.dir, '.ralph/prds/demo/progress.md'), 'utf8')).toBe(
      '## Codebase Patterns\n- keep it\n',
    );
  });
});
