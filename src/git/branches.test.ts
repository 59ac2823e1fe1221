import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import {
  branchExists,
  defaultBranch,
  deleteBranch,
  isMergedInto,
  ralphBranch,
  ralphBranches,
  recordRalphBranch,
  startPointOf,
  switchBranch,
} from './branches.js';
import { git } from './git.js';
import { currentBranch } from './repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function repo(): Promise<TempRepo> {
  const r = await makeTempRepo();
  cleanups.push(r.cleanup);
  return r;
}

async function bare(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ralph-bare-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await git(['init', '--quiet', '--bare', '--initial-branch=trunk'], { cwd: dir });
  return dir;
}

describe('defaultBranch', () => {
  it('follows origin/HEAD first', async () => {
    const r = await repo();
    await r.commit('base');
    await r.git('branch', '-m', 'trunk');
    const origin = await bare();
    await r.git('remote', 'add', 'origin', origin);
    await r.git('push', '--quiet', 'origin', 'trunk');
    await r.git('remote', 'set-head', 'origin', 'trunk');
    await r.git('switch', '--quiet', '-c', 'main');
    expect(await defaultBranch(r.dir)).toBe('trunk');
  });

  it('falls back to main, then master, then the current branch', async () => {
    const r = await repo();
    await r.commit('base');
    await r.git('switch', '--quiet', '-c', 'topic');
    expect(await defaultBranch(r.dir)).toBe('main');
    await r.git('branch', '-m', 'main', 'master');
    expect(await defaultBranch(r.dir)).toBe('master');
    await r.git('branch', '-m', 'master', 'other');
    expect(await defaultBranch(r.dir)).toBe('topic');
  });
});

describe('startPointOf', () => {
  it('uses the local branch, else the remote-tracking one', async () => {
    const r = await repo();
    await r.commit('base');
    const origin = await bare();
    await r.git('remote', 'add', 'origin', origin);
    await r.git('push', '--quiet', 'origin', 'main:release');
    await r.git('fetch', '--quiet', 'origin');
    expect(await startPointOf(r.dir, 'main')).toBe('main');
    expect(await startPointOf(r.dir, 'release')).toBe('origin/release');
  });
});

describe('ralph branch records', () => {
  it('records name and base per branch, keeps the branch case, and forgets them with the branch', async () => {
    const r = await repo();
    await r.commit('base');
    await r.git('branch', 'ralph/My.Feature');
    await r.git('branch', 'other');
    await recordRalphBranch(r.dir, 'ralph/My.Feature', { name: 'my-feature', base: 'main' });
    await recordRalphBranch(r.dir, 'other', { name: 'o' });
    expect(await ralphBranch(r.dir, 'ralph/My.Feature')).toEqual({
      branch: 'ralph/My.Feature',
      name: 'my-feature',
      base: 'main',
    });
    expect((await ralphBranches(r.dir)).map((b) => b.branch).sort()).toEqual(['other', 'ralph/My.Feature']);
    await deleteBranch(r.dir, 'ralph/My.Feature');
    expect(await branchExists(r.dir, 'ralph/My.Feature')).toBe(false);
    expect(await ralphBranch(r.dir, 'ralph/My.Feature')).toBeNull();
    expect(await r.git('config', '--get-regexp', '^branch\\.').catch(() => '')).not.toMatch(/My\.Feature/);
  });
});

describe('switchBranch / isMergedInto', () => {
  it('creates from HEAD, switches back, and tells merged from unmerged and pushed', async () => {
    const r = await repo();
    await r.commit('base');
    await switchBranch(r.dir, 'ralph/x', { create: true });
    expect(await currentBranch(r.dir)).toBe('ralph/x');
    expect(await isMergedInto(r.dir, 'ralph/x', ['main'])).toBe(true);
    await r.commit('work', { 'w.txt': 'w' });
    await switchBranch(r.dir, 'main', { create: false });
    expect(await isMergedInto(r.dir, 'ralph/x', ['main'])).toBe(false);
    expect(await isMergedInto(r.dir, 'ralph/x', ['no-such-branch'])).toBe(false);

    const origin = await bare();
    await r.git('remote', 'add', 'origin', origin);
    await r.git('push', '--quiet', '-u', 'origin', 'ralph/x');
    expect(await isMergedInto(r.dir, 'ralph/x', ['main'])).toBe(true);
  });
});
