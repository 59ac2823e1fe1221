/**
 * The merge-queue role on real repositories: verified story branches (made
 * here with plain git, as a worker would leave them) landed on the PRD
 * branch, and the states a killed landing leaves, recovered.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testRunContext } from '../../test/support/run-context.js';
import { buildStory } from '../../test/support/story-builder.js';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { storyBranchName } from '../core/story-ref.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { RunEvent } from '../events/run-event.js';
import { detachHead, rebaseOnto } from '../git/land.js';
import { currentBranch } from '../git/repo.js';
import { verdictAt, writeVerdict } from '../git/story-branches.js';
import { prepareStoryCheckout } from '../git/story-worktree.js';
import type { RunContext } from '../run/run-context.js';
import { newRunState } from '../state/run-state-update.js';
import { startIntegrating } from '../state/running-attempts.js';
import { type LandResult, landStory } from './land-story.js';
import { undoInterruptedLanding } from './parallel-recovery.js';

const PRD = {
  project: 'Demo',
  userStories: ['A', 'B'].map((id, i) => ({
    id,
    title: `Story ${id}`,
    description: '',
    acceptanceCriteria: ['works'],
    priority: i + 1,
    passes: false,
  })),
};
const TASK = '.ralph/prds/demo/prd.json';
const BRANCH = 'ralph/demo';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function setUp(gates: string[] = []) {
  const r = await makeTempRepo();
  repo = r;
  await r.commit('base', {
    'README.md': '# demo\n',
    'shared.txt': 'line one\nline two\n',
    '.ralph/.gitignore': 'runs/\nworktrees/\n',
    [TASK]: `${JSON.stringify(PRD, null, 2)}\n`,
  });
  await r.git('switch', '--quiet', '-c', BRANCH);
  const events: RunEvent[] = [];
  const ctx = testRunContext(r.dir, { gates, events });
  return { r, ctx, events };
}

/** What a worker leaves: the story's commits on its branch from `from`, topped by its verdict. */
async function verified(r: TempRepo, id: string, files: Record<string, string>, from = BRANCH) {
  const base = await r.git('rev-parse', from);
  const dir = path.join(r.dir, '.ralph', 'runs', 'demo', 'stories', id);
  const branch = storyBranchName('demo', id);
  await prepareStoryCheckout(r.dir, { dir, branch, from: base });
  for (const [file, content] of Object.entries(files)) {
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const git = (...args: string[]) => r.git('-C', dir, ...args);
  await git('add', '-A');
  await git('commit', '--quiet', '-m', `feat: ${id} - Story ${id}`);
  const verdict: StoryVerdict = {
    version: 1,
    prd: 'demo',
    storyId: id,
    attempt: 1,
    base,
    head: await git('rev-parse', 'HEAD'),
    costUsd: 0.01,
    inputTokens: 10,
    outputTokens: 5,
    durationMs: 100,
    verifiedAt: '2026-01-01T00:00:00.000Z',
    summary: `Did ${id}.`,
    learnings: [`${id} teaches something`],
  };
  const tip = await writeVerdict(r.dir, branch, verdict);
  return { verdict, tip, branch };
}

const story = (id: string) => buildStory(id, { title: `Story ${id}`, location: { file: TASK } });

function land(
  ctx: RunContext,
  id: string,
  verdict: StoryVerdict,
  began: (tip: string) => Promise<void> = async () => {},
) {
  return landStory({
    ctx,
    prdBranch: BRANCH,
    story: story(id),
    verdict,
    iteration: 1,
    emit: ctx.emit,
    began,
  });
}

const passes = async (r: TempRepo) =>
  (JSON.parse(await r.git('show', `${BRANCH}:${TASK}`)) as typeof PRD).userStories.map((s) => s.passes);

describe('landStory', () => {
  it('keeps the verified commits as they are when the tip has not moved, then records the pass', async () => {
    const { r, ctx } = await setUp(['test -f a.txt']);
    const { verdict, tip } = await verified(r, 'A', { 'a.txt': 'a\n' });
    expect(await verdictAt(r.dir, tip)).toEqual(verdict);
    const result = await land(ctx, 'A', verdict);
    expect(result).toMatchObject({ kind: 'landed', commits: [{ sha: verdict.head }] });
    const log = (await r.git('log', '--format=%s', `main..${BRANCH}`)).split('\n');
    expect(log).toEqual(['chore(ralph): A passed', 'feat: A - Story A']);
    expect(await passes(r)).toEqual([true, false]);
    const progress = await r.git('show', `${BRANCH}:.ralph/prds/demo/progress.md`);
    expect(progress).toContain('A teaches something');
    expect(progress).toContain('Did A.');
    expect(await currentBranch(r.dir)).not.toBeNull();
    expect(await r.git('status', '--porcelain')).toBe('');
  });

  it('rebases onto a tip that moved, and the gates judge the combined result', async () => {
    const { r, ctx } = await setUp(['test -f a.txt && test -f b.txt']);
    const a = await verified(r, 'A', { 'a.txt': 'a\n' });
    const b = await verified(r, 'B', { 'b.txt': 'b\n' });
    // B alone would fail the gate (no a.txt); A alone too. Landed in turn, both pass.
    expect(
      (await land({ ...ctx, config: { ...ctx.config, checks: ['test -f a.txt'] } }, 'A', a.verdict)).kind,
    ).toBe('landed');
    const result = await land(ctx, 'B', b.verdict);
    expect(result.kind).toBe('landed');
    expect(await passes(r)).toEqual([true, true]);
    const feats = (await r.git('log', '--format=%s', `main..${BRANCH}`)).split('\n');
    expect(feats).toEqual([
      'chore(ralph): B passed',
      'feat: B - Story B',
      'chore(ralph): A passed',
      'feat: A - Story A',
    ]);
    // The landed B is a new commit (rebased), not the one verified.
    expect((result as Extract<LandResult, { kind: 'landed' }>).commits[0]?.sha).not.toBe(b.verdict.head);
  });

  it('rejects a conflict: the PRD branch does not move, the checkout is back on it, clean, and the reason says why', async () => {
    const { r, ctx } = await setUp();
    const a = await verified(r, 'A', { 'shared.txt': 'line one\nline two by A\n' });
    const b = await verified(r, 'B', { 'shared.txt': 'line one\nline two by B\n' });
    await land(ctx, 'A', a.verdict);
    const tip = await r.git('rev-parse', BRANCH);
    const result = await land(ctx, 'B', b.verdict);
    expect(result.kind).toBe('rejected');
    if (result.kind !== 'rejected') return;
    expect(result.problem).toMatchObject({ kind: 'conflict', files: ['shared.txt'] });
    expect(result.landedMeanwhile).toEqual(['A']);
    expect(result.failure.reason).toContain('while it ran, A landed');
    expect(result.failure.gateOutputTail).toContain('line two by B');
    expect(await r.git('rev-parse', BRANCH)).toBe(tip);
    expect(await currentBranch(r.dir)).not.toBeNull();
    expect(await r.git('status', '--porcelain')).toBe('');
    expect(await readFile(path.join(r.dir, 'shared.txt'), 'utf8')).toBe('line one\nline two by A\n');
    expect(await r.git('grep', '-c', '<<<<<<<', BRANCH).catch(() => 'none')).toBe('none');
  });

  it('rejects work whose gates fail once combined with the new tip; the branch does not move', async () => {
    const { r, ctx } = await setUp(['! (test -f a.txt && test -f b.txt)']);
    const a = await verified(r, 'A', { 'a.txt': 'a\n' });
    const b = await verified(r, 'B', { 'b.txt': 'b\n' });
    await land(ctx, 'A', a.verdict);
    const tip = await r.git('rev-parse', BRANCH);
    const result = await land(ctx, 'B', b.verdict);
    expect(result).toMatchObject({
      kind: 'rejected',
      problem: { kind: 'gates' },
      failure: { kind: 'check-failed' },
    });
    expect(await r.git('rev-parse', BRANCH)).toBe(tip);
    expect(existsSync(path.join(r.dir, 'b.txt'))).toBe(false);
  });

  it('settles a conflict in the task file with the tool’s record, not the agent’s edit', async () => {
    const { r, ctx } = await setUp();
    const a = await verified(r, 'A', { 'a.txt': 'a\n' });
    // B's agent rewrote the task file, over the very lines A's record changes: a real conflict.
    const b = await verified(r, 'B', { 'b.txt': 'b\n', [TASK]: '{ "rewritten by the agent": true }\n' });
    await land(ctx, 'A', a.verdict);
    expect((await land(ctx, 'B', b.verdict)).kind).toBe('landed');
    expect(await passes(r)).toEqual([true, true]);
    await land(ctx, 'A', a.verdict).then((again) => expect(again.kind).toBe('already-landed'));
  });

  it('starts over on the new tip when the branch moved between the check and the swap', async () => {
    const { r, ctx } = await setUp();
    const a = await verified(r, 'A', { 'a.txt': 'a\n' });
    let moved = false;
    const result = await land(ctx, 'A', a.verdict, async () => {
      if (moved) return;
      moved = true;
      // Someone else lands a commit on the PRD branch while A is being integrated.
      const other = await r.git('commit-tree', `${BRANCH}^{tree}`, '-p', BRANCH, '-m', 'chore: someone else');
      await r.git('update-ref', `refs/heads/${BRANCH}`, other);
      await r.git('reset', '--hard', '--quiet', BRANCH);
    });
    expect(result.kind).toBe('landed');
    expect((await r.git('log', '--format=%s', `main..${BRANCH}`)).split('\n')).toEqual([
      'chore(ralph): A passed',
      'feat: A - Story A',
      'chore: someone else',
    ]);
  });
});

describe('a landing killed half way', () => {
  it('mid-rebase: the checkout goes back to the untouched branch, and the story lands again', async () => {
    const { r, ctx } = await setUp();
    const a = await verified(r, 'A', { 'shared.txt': 'line one\nA\n' });
    const b = await verified(r, 'B', { 'shared.txt': 'line one\nB\n' });
    await land(ctx, 'A', a.verdict);
    const tip = await r.git('rev-parse', BRANCH);
    // What a kill -9 during B's landing leaves: detached, a conflicted rebase in progress.
    let state = startIntegrating(newRunState({ name: 'demo', taskPath: TASK, now: new Date() }), {
      storyId: 'B',
      checkout: r.dir,
      branch: BRANCH,
      tipBefore: tip,
      token: 'landing-token',
      startedAt: new Date().toISOString(),
    });
    await detachHead(r.dir);
    await r.git('rebase', '--onto', tip, b.verdict.base, b.verdict.head).catch(() => undefined);
    expect(await currentBranch(r.dir)).toBeNull();

    state = await undoInterruptedLanding(state, ctx.emit);
    expect(state.integrating).toBeUndefined();
    expect(await currentBranch(r.dir)).not.toBeNull();
    expect(await r.git('rev-parse', 'HEAD')).toBe(tip);
    expect(await r.git('status', '--porcelain')).toBe('');
    expect(existsSync(path.join(r.dir, '.git', 'rebase-merge'))).toBe(false);
  });

  it('after the branch moved but before the checkout was put back on it: the landing stands', async () => {
    const { r, ctx } = await setUp();
    const a = await verified(r, 'A', { 'a.txt': 'a\n' });
    const tipBefore = await r.git('rev-parse', BRANCH);
    const state = startIntegrating(newRunState({ name: 'demo', taskPath: TASK, now: new Date() }), {
      storyId: 'A',
      checkout: r.dir,
      branch: BRANCH,
      tipBefore,
      token: 'landing-token',
      startedAt: new Date().toISOString(),
    });
    // Land A completely, then leave the checkout detached as a kill between the swap and the re-attach would.
    await land(ctx, 'A', a.verdict);
    const landed = await r.git('rev-parse', BRANCH);
    await detachHead(r.dir);
    await undoInterruptedLanding(state, ctx.emit);
    expect(await r.git('rev-parse', BRANCH)).toBe(landed);
    expect(await currentBranch(r.dir)).not.toBeNull();
    expect(await passes(r)).toEqual([true, false]);
    expect((await land(ctx, 'A', a.verdict)).kind).toBe('already-landed');
  });

  it('a tool-file conflict resolved alone is not a conflict for rebaseOnto', async () => {
    const { r } = await setUp();
    const base = await r.git('rev-parse', BRANCH);
    await r.commit('tip', { 'shared.txt': 'line one\ntip\n' });
    const tip = await r.git('rev-parse', 'HEAD');
    await r.git('switch', '--quiet', '--detach', base);
    await r.commit('story', { 'shared.txt': 'line one\nstory\n', 'x.txt': 'x\n' });
    const head = await r.git('rev-parse', 'HEAD');
    await r.git('switch', '--quiet', '--detach', tip);
    const settled = await rebaseOnto(r.dir, { onto: tip, upstream: base, head }, (p) => p === 'shared.txt');
    expect(settled.ok).toBe(true);
    expect(await readFile(path.join(r.dir, 'shared.txt'), 'utf8')).toBe('line one\ntip\n');
    expect(await readFile(path.join(r.dir, 'x.txt'), 'utf8')).toBe('x\n');
  });
});
