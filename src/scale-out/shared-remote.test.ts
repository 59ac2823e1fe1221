/**
 * The shared remote on real repositories: a bare origin and clones of it,
 * as jobs on different machines see them.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { git } from '../git/git.js';
import { refSha } from '../git/story-branches.js';
import {
  fetchShared,
  pushSetback,
  pushWithLease,
  sharedStoryBranches,
  sharedTip,
  syncPrdBranch,
} from './shared-remote.js';

let repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.map((r) => r.cleanup()));
  repos = [];
});

/** `upstream` with one commit, a bare `origin` of it, and two clones (two machines). */
async function machines(): Promise<{ a: TempRepo; b: TempRepo; base: string }> {
  const upstream = await makeTempRepo();
  repos.push(upstream);
  const base = await upstream.commit('initial', { 'README.md': '# x\n' });
  const origin = path.join(upstream.dir, 'origin.git');
  await upstream.git('clone', '--quiet', '--bare', upstream.dir, origin);
  const clone = async () => {
    const r = await makeTempRepo();
    repos.push(r);
    await r.git('remote', 'add', 'origin', origin);
    await r.git('fetch', '--quiet', 'origin');
    await r.git('reset', '--quiet', '--hard', 'origin/main');
    return r;
  };
  return { a: await clone(), b: await clone(), base };
}

describe('the shared remote', () => {
  it('a lease lets one of two racing jobs move a branch; the same commit pushed twice changes nothing', async () => {
    const { a, b, base } = await machines();
    const fromA = await a.commit('a', { 'a.txt': 'a\n' });
    const fromB = await b.commit('b', { 'b.txt': 'b\n' });
    expect(await pushWithLease(a.dir, 'ralph/demo', fromA, null)).toEqual({ ok: true, changed: true });
    // B expected the branch absent: refused, A's commit stays.
    const lost = await pushWithLease(b.dir, 'ralph/demo', fromB, null);
    expect(lost.ok).toBe(false);
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    expect(await sharedTip(b.dir, 'ralph/demo')).toBe(fromA);
    // A's very commit pushed again (another job made the same landing): no change, no lease checked.
    await b.git('fetch', '--quiet', 'origin', 'ralph/demo');
    expect(await pushWithLease(b.dir, 'ralph/demo', fromA, base)).toEqual({ ok: true, changed: false });
    // Deleting with a stale lease is refused; with the right one it goes.
    expect((await pushWithLease(b.dir, 'ralph/demo', null, base)).ok).toBe(false);
    expect(await pushWithLease(b.dir, 'ralph/demo', null, fromA)).toEqual({ ok: true, changed: true });
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    expect(await sharedTip(b.dir, 'ralph/demo')).toBeNull();
  });

  it('brings the local PRD branch to the remote tip, and refuses one with commits the remote lacks', async () => {
    const { a, b } = await machines();
    const first = await a.commit('first', { 'f.txt': '1\n' });
    await pushWithLease(a.dir, 'ralph/demo', first, null);
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    await syncPrdBranch(b.dir, 'ralph/demo');
    expect(await refSha(b.dir, 'refs/heads/ralph/demo')).toBe(first);
    // Checked out in a worktree and behind: fast-forwarded there, files and all.
    const wt = path.join(b.dir, 'wt');
    await b.git('worktree', 'add', '--quiet', wt, 'ralph/demo');
    const second = await a.commit('second', { 'g.txt': '2\n' });
    await pushWithLease(a.dir, 'ralph/demo', second, first);
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    await syncPrdBranch(b.dir, 'ralph/demo');
    expect(await git(['rev-parse', 'HEAD'], { cwd: wt })).toBe(second);
    expect(await git(['status', '--porcelain'], { cwd: wt })).toBe('');
    // A local commit the remote does not have is never thrown away.
    await git(['commit', '--quiet', '--allow-empty', '-m', 'local only'], { cwd: wt });
    await expect(syncPrdBranch(b.dir, 'ralph/demo')).rejects.toThrow(
      /has commits that origin\/ralph\/demo does not/,
    );
  });

  it('reads verdicts and setbacks of the PRD story branches from the remote, and prunes deleted ones', async () => {
    const { a, b, base } = await machines();
    await pushSetback(a.dir, 'ralph-stories/demo/US-1', {
      parent: base,
      expected: null,
      setback: {
        version: 1,
        prd: 'demo',
        storyId: 'US-1',
        attempts: 3,
        parked: true,
        failure: { kind: 'fail-signal', reason: 'no API' },
        at: '2026-01-02T03:04:05.000Z',
      },
    });
    const work = await a.commit('work', { 'w.txt': 'w\n' });
    await pushWithLease(a.dir, 'ralph-stories/demo/US-2', work, null);
    await pushWithLease(a.dir, 'ralph-stories/other/US-3', work, null);
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    const branches = await sharedStoryBranches(b.dir, 'demo');
    expect(branches.map((s) => s.branch).sort()).toEqual([
      'ralph-stories/demo/US-1',
      'ralph-stories/demo/US-2',
    ]);
    const parked = branches.find((s) => s.branch.endsWith('US-1'));
    expect(parked?.setback).toMatchObject({ storyId: 'US-1', attempts: 3, parked: true });
    expect(parked?.verdict).toBeNull();
    expect(branches.find((s) => s.branch.endsWith('US-2'))).toMatchObject({ verdict: null, setback: null });
    await pushWithLease(a.dir, 'ralph-stories/demo/US-2', null, work);
    await fetchShared(b.dir, 'ralph/demo', 'demo');
    expect((await sharedStoryBranches(b.dir, 'demo')).map((s) => s.branch)).toEqual([
      'ralph-stories/demo/US-1',
    ]);
  });
});
