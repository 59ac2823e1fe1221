/**
 * What a killed parallel run leaves, put right on a real repository: agents
 * and gates stopped, unfinished story work removed and not counted, landed
 * stories' branches removed, verified work kept to land first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../test/support/process-alive.js';
import { testRunContext } from '../../test/support/run-context.js';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { ATTEMPT_ENV } from '../agents/process-environ.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { RunEvent } from '../events/run-event.js';
import { writeVerdict } from '../git/story-branches.js';
import { prepareStoryCheckout } from '../git/story-worktree.js';
import { readTaskFile } from '../run/read-task-file.js';
import { newRunState } from '../state/run-state-update.js';
import { startRunning, updateRunning } from '../state/running-attempts.js';
import { recoverStories } from './parallel-recovery.js';
import { storyCheckoutOf } from './work-story.js';

const TASK = '.ralph/prds/demo/prd.json';
const prd = (done: string[]) =>
  `${JSON.stringify(
    {
      project: 'Demo',
      userStories: ['A', 'B', 'C', 'D'].map((id, i) => ({
        id,
        title: id,
        acceptanceCriteria: [],
        priority: i + 1,
        passes: done.includes(id),
      })),
    },
    null,
    2,
  )}\n`;

let repo: TempRepo | undefined;
const sleepers: number[] = [];
afterEach(async () => {
  for (const pid of sleepers.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already stopped, as it should be.
    }
  }
  await repo?.cleanup();
  repo = undefined;
});

describe('recoverStories', () => {
  it('stops what ran, removes unfinished and landed stories, keeps verified work in verification order', async () => {
    const r = await makeTempRepo();
    repo = r;
    await r.commit('base', { '.ralph/.gitignore': 'runs/\nworktrees/\n', [TASK]: prd(['A']) });
    const events: RunEvent[] = [];
    const ctx = testRunContext(r.dir, { events });
    const files = ctx.files;
    const base = await r.git('rev-parse', 'HEAD');
    const story = async (id: string) => {
      const checkout = storyCheckoutOf(ctx, id);
      await prepareStoryCheckout(r.dir, { ...checkout, from: base });
      await writeFile(path.join(checkout.dir, `${id}.txt`), id);
      await r.git('-C', checkout.dir, 'add', '-A');
      await r.git('-C', checkout.dir, 'commit', '-qm', `feat: ${id}`);
      return { ...checkout, head: await r.git('-C', checkout.dir, 'rev-parse', 'HEAD') };
    };
    const verify = (id: string, head: string, verifiedAt: string): StoryVerdict => ({
      version: 1,
      prd: 'demo',
      storyId: id,
      attempt: 1,
      base,
      head,
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      durationMs: 0,
      verifiedAt,
      summary: '',
      learnings: [],
    });
    // A landed before the crash, its branch still there; B and D verified (D first); C mid-attempt.
    const a = await story('A');
    const b = await story('B');
    const c = await story('C');
    const d = await story('D');
    await writeVerdict(r.dir, b.branch, verify('B', b.head, '2026-01-01T00:00:02.000Z'));
    await writeVerdict(r.dir, d.branch, verify('D', d.head, '2026-01-01T00:00:01.000Z'));
    await mkdir(path.join(files.dir, 'stories', 'stray'), { recursive: true });
    const agent = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    // A gate of the attempt: its own process group, found only by the attempt's token.
    const gate = spawn('sleep', ['300'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, [ATTEMPT_ENV]: 'token-of-C' },
    });
    for (const p of [agent, gate]) if (p.pid) sleepers.push(p.pid);
    let state = newRunState({ name: 'demo', taskPath: TASK, now: new Date() });
    state = startRunning(state, {
      storyId: 'C',
      worker: 1,
      headBefore: base,
      now: new Date(),
      branch: c.branch,
      worktree: c.dir,
    });
    state = updateRunning(state, 'C', { agentPid: agent.pid ?? 0, agentToken: 'token-of-C' });
    state = startRunning(state, {
      storyId: 'B',
      worker: 2,
      headBefore: base,
      now: new Date(),
      branch: b.branch,
      worktree: b.dir,
    });

    const recovered = await recoverStories(ctx, r.dir, state, await readTaskFile(ctx));

    expect(isProcessAlive(agent.pid ?? 0)).toBe(false);
    expect(isProcessAlive(gate.pid ?? 0)).toBe(false);
    expect(recovered.waiting.map((w) => w.storyId)).toEqual(['D', 'B']);
    expect(await r.git('branch', '--list', '--format=%(refname:short)', 'ralph-stories/*')).toBe(
      'ralph-stories/demo/B\nralph-stories/demo/D',
    );
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(c.dir)).toBe(false);
    expect(existsSync(path.join(files.dir, 'stories', 'stray'))).toBe(false);
    // C's cut-short attempt is not counted; B's verified one is.
    expect(recovered.state.running).toEqual([]);
    expect(recovered.state.stories.C?.attempts).toBe(0);
    expect(recovered.state.stories.B?.attempts).toBe(1);
    expect(recovered.state.stories.A?.passedAt).toBeDefined();
    expect(events.map((e) => (e.type === 'recovered' ? `${e.storyId} ${e.action}` : e.type)).sort()).toEqual([
      'A cleaned',
      'B kept-verified',
      'C rolled-back',
      'D kept-verified',
    ]);
  });
});
