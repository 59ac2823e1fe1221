import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGh, FAKE_PR_URL, type FakeGh } from '../../test/support/fake-gh.js';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import type { Story } from '../core/types.js';
import type { RunEvent } from '../events/run-event.js';
import { recordRalphBranch } from '../git/branches.js';
import { git } from '../git/git.js';
import { pullRequestBody } from '../git/pull-request.js';
import { newRunState } from '../state/run-state-update.js';
import { completedStories, onComplete } from './on-complete.js';

let repo: TempRepo | undefined;
let gh: FakeGh | undefined;
let origin = '';
afterEach(async () => {
  await repo?.cleanup();
  await gh?.cleanup();
  if (origin) await rm(origin, { recursive: true, force: true });
  repo = undefined;
  gh = undefined;
  origin = '';
});

const STORIES = [
  { id: 'US-001', title: 'Add greeting', attempts: 1, costUsd: 0.02 },
  { id: 'US-002', title: 'Add farewell', attempts: 2, costUsd: 0.05 },
];

async function branchWithOrigin(): Promise<TempRepo> {
  const r = await makeTempRepo();
  await r.commit('base');
  await r.git('switch', '--quiet', '-c', 'ralph/demo');
  await r.commit('feat: US-001 - Add greeting', { 'greet.txt': 'hello' });
  await recordRalphBranch(r.dir, 'ralph/demo', { name: 'demo', base: 'main' });
  origin = await mkdtemp(path.join(tmpdir(), 'ralph-origin-'));
  await git(['init', '--quiet', '--bare'], { cwd: origin });
  await r.git('remote', 'add', 'origin', origin);
  return r;
}

describe('onComplete', () => {
  it('pushes the branch to origin and opens a PR with gh, returning its URL', async () => {
    repo = await branchWithOrigin();
    gh = await createFakeGh();
    const events: RunEvent[] = [];
    const result = await onComplete({
      cwd: repo.dir,
      branch: 'ralph/demo',
      name: 'demo',
      project: 'Demo',
      stories: STORIES,
      push: true,
      createPR: true,
      emit: (e) => events.push(e),
      env: gh.env(),
    });
    expect(result).toEqual({ pushed: true, prUrl: FAKE_PR_URL });
    expect(await git(['rev-parse', 'refs/heads/ralph/demo'], { cwd: origin })).toBe(
      await repo.git('rev-parse', 'HEAD'),
    );
    expect((await gh.calls()).map((c) => c.args)).toEqual([
      [
        'pr',
        'create',
        '--title',
        'feat(demo): Demo',
        '--body',
        pullRequestBody({ name: 'demo', project: 'Demo', stories: STORIES }),
        '--head',
        'ralph/demo',
        '--base',
        'main',
      ],
    ]);
    expect(events).toEqual([
      { type: 'push-started', branch: 'ralph/demo' },
      { type: 'branch-pushed', branch: 'ralph/demo', remote: 'origin' },
      { type: 'pr-started', branch: 'ralph/demo', base: 'main' },
      { type: 'pr-created', url: FAKE_PR_URL, existing: false },
    ]);
  });

  it('only pushes when no PR is wanted, and does nothing when neither is', async () => {
    repo = await branchWithOrigin();
    gh = await createFakeGh();
    const base = {
      cwd: repo.dir,
      branch: 'ralph/demo',
      name: 'demo',
      project: 'Demo',
      stories: STORIES,
      env: gh.env(),
    };
    expect(await onComplete({ ...base, push: false, createPR: false })).toEqual({
      pushed: false,
      prUrl: null,
    });
    expect(await git(['branch', '--list'], { cwd: origin })).toBe('');
    expect(await onComplete({ ...base, push: true, createPR: false })).toEqual({ pushed: true, prUrl: null });
    expect(await git(['branch', '--list', '--format=%(refname:short)'], { cwd: origin })).toBe('ralph/demo');
    expect(await gh.calls()).toEqual([]);
  });

  it('with gh missing: the branch is pushed, a clear message, no throw', async () => {
    repo = await branchWithOrigin();
    const events: RunEvent[] = [];
    const result = await onComplete({
      cwd: repo.dir,
      branch: 'ralph/demo',
      name: 'demo',
      project: 'Demo',
      stories: STORIES,
      push: false,
      createPR: true,
      emit: (e) => events.push(e),
      env: { PATH: repo.dir },
    });
    expect(result).toEqual({ pushed: true, prUrl: null });
    const failure = events.find((e) => e.type === 'pr-failed');
    expect(failure?.type === 'pr-failed' && failure.message).toMatch(
      /gh.*not installed.*ralph\/demo -> main/s,
    );
  });

  it('with gh not logged in: the message says how to log in', async () => {
    repo = await branchWithOrigin();
    gh = await createFakeGh({
      exitCode: 4,
      stdout: '',
      stderr: 'To get started with GitHub CLI, please run:  gh auth login\n',
    });
    const events: RunEvent[] = [];
    const result = await onComplete({
      cwd: repo.dir,
      branch: 'ralph/demo',
      name: 'demo',
      project: 'Demo',
      stories: STORIES,
      push: true,
      createPR: true,
      emit: (e) => events.push(e),
      env: gh.env(),
    });
    expect(result.prUrl).toBeNull();
    const failure = events.find((e) => e.type === 'pr-failed');
    expect(failure?.type === 'pr-failed' && failure.message).toMatch(/exit 4.*gh auth login/s);
  });

  it('without a remote: no push, no PR, no throw', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    gh = await createFakeGh();
    const events: RunEvent[] = [];
    const result = await onComplete({
      cwd: repo.dir,
      branch: 'main',
      name: 'demo',
      project: 'Demo',
      stories: STORIES,
      push: true,
      createPR: true,
      emit: (e) => events.push(e),
      env: gh.env(),
    });
    expect(result).toEqual({ pushed: false, prUrl: null });
    expect(events.map((e) => e.type)).toEqual(['push-started', 'push-failed', 'pr-failed']);
    expect(await gh.calls()).toEqual([]);
  });
});

describe('completedStories', () => {
  const story = (id: string, status: Story['status']): Story => ({
    id,
    title: `Title ${id}`,
    description: '',
    acceptanceCriteria: [],
    priority: 1,
    status,
    dependsOn: [],
    order: 0,
    location: { file: 'prd.json' },
  });

  it('takes the passed stories with attempts and cost from the run state', () => {
    const state = newRunState({ name: 'demo', taskPath: 'prd.json', now: new Date('2025-01-01T00:00:00Z') });
    state.stories['US-001'] = {
      attempts: 2,
      costUsd: 0.5,
      inputTokens: 0,
      outputTokens: 0,
      durationMs: 0,
      commits: [],
    };
    const prd = { stories: [story('US-001', 'done'), story('US-002', 'todo'), story('US-003', 'done')] };
    expect(completedStories(prd, state)).toEqual([
      { id: 'US-001', title: 'Title US-001', attempts: 2, costUsd: 0.5 },
      { id: 'US-003', title: 'Title US-003', attempts: 0, costUsd: 0 },
    ]);
  });
});
