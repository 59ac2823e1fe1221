/**
 * The outside-world campaign: a 10-story run with the real Claude Code
 * (its own retries at 2) against a scripted model that fails at random —
 * connections refused for a while, HTTP 500, 503 and 529 — and whose key
 * expires once, near the end. Checked after each run: no story was parked or
 * charged an attempt for any of it (every attempt that counted is a pass),
 * and the run ended complete, or with exit 4 for the refused key or exit 3
 * for an outage past --outage-wait, each with the reason that really
 * happened; run again without faults, it completes every story, each
 * landed once.
 *
 * `npm test` runs one campaign; `RALPH_OUTSIDE_CAMPAIGNS=10 npx vitest run
 * test/faults/outside-campaign.test.ts` runs more (RALPH_OUTSIDE_SEED
 * replays one, RALPH_OUTSIDE_FAULT_RATE sets the share of failed requests).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createLoopProject,
  featSubjects,
  type LoopProject,
  prdJson,
  runEvents,
} from '../support/loop-project.js';
import type { Reply, Script } from '../support/model-script.js';
import { implement, storyIdOf } from '../support/story-script.js';
import { randomSource } from './kill-plan.js';

const number = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
};

const CAMPAIGNS = number('RALPH_OUTSIDE_CAMPAIGNS', 1);
const SEED = number('RALPH_OUTSIDE_SEED', Date.now() % 2 ** 31);
const FAULT_RATE = number('RALPH_OUTSIDE_FAULT_RATE', 0.15);

const STORIES = Array.from({ length: 10 }, (_, i) => ({
  id: `S-${String(i + 1).padStart(2, '0')}`,
  title: `Story ${i + 1}`,
}));
const PLAN = Object.fromEntries(
  STORIES.map((s) => [s.id, [implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`)]]),
);
/** The story at which the key starts being refused (the rerun, with faults off, has it fixed). */
const REFUSED_AT = 'S-09';

type Fault = { kind: 'refused' | '5xx' | '401'; storyId: string; status?: number };

/** The story script behind a fault injector; `server` is the project's, for refusing connections. */
function faulty(
  script: Script,
  random: () => number,
  faults: { on: boolean; seen: Fault[] },
  project: () => LoopProject | undefined,
) {
  let refusedKey = false;
  return async (req: Parameters<Script>[0]): Promise<Reply> => {
    if (!faults.on) return script(req);
    const storyId = storyIdOf(req) ?? '';
    // The key expires once, near the end: from then on it is refused until someone fixes it.
    if (storyId === REFUSED_AT || refusedKey) {
      if (!refusedKey) faults.seen.push({ kind: '401', storyId });
      refusedKey = true;
      return { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } };
    }
    const roll = random();
    if (roll < FAULT_RATE / 3) {
      // Connections refused for a while: this request's connection is cut too.
      const server = project()?.server;
      if (server) {
        faults.seen.push({ kind: 'refused', storyId });
        const forMs = 1000 + Math.floor(random() * 3000);
        await server.pause();
        setTimeout(() => void server.resume(), forMs);
        return { hang: true };
      }
    }
    if (roll < FAULT_RATE) {
      const status = [500, 503, 529][Math.floor(random() * 3)] ?? 500;
      faults.seen.push({ kind: '5xx', storyId, status });
      return { error: { status, message: status === 529 ? 'Overloaded' : 'Internal server error' } };
    }
    return script(req);
  };
}

const ENV = {
  CLAUDE_CODE_MAX_RETRIES: '2',
  RALPH_OUTAGE_BACKOFF_MS: '500',
  RALPH_OUTAGE_MAX_BACKOFF_MS: '2000',
  RALPH_WAIT_TICK_MS: '1000',
};

describe('outside-world campaign', () => {
  for (let campaign = 0; campaign < CAMPAIGNS; campaign++) {
    const seed = SEED + campaign;
    it(`seed ${seed}: random outages and 5xx, a key refused near the end; nothing parked or charged`, async () => {
      const random = randomSource(seed);
      const faults = { on: true, seen: [] as Fault[] };
      let project: LoopProject | undefined;
      project = await createLoopProject({ 'prd.json': prdJson(STORIES) }, PLAN, {
        wrap: (script) => faulty(script, random, faults, () => project),
      });
      try {
        const args = ['prd.json', '--headless', '--no-worktree', '--outage-wait', '120'];
        const first = await project.run(args, { env: ENV });
        const events = await runEvents(project);
        const finished = events.at(-1) ?? {};
        // The run ended complete, or with the reason that really happened.
        expect([0, 3, 4], `seed ${seed}: ${first.stdout.slice(-2000)}`).toContain(first.exitCode);
        if (first.exitCode === 4) {
          expect(finished).toMatchObject({ reason: 'agent-unusable' });
          expect(faults.seen.some((f) => f.kind === '401')).toBe(true);
        }
        if (first.exitCode === 3) {
          expect(finished).toMatchObject({ reason: 'outage-wait' });
          expect(faults.seen.some((f) => f.kind !== '401')).toBe(true);
        }
        // Nothing outside cost a story: no failed attempt, nothing parked, every counted attempt a pass.
        expect(events.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked')).toEqual([]);
        for (const passed of events.filter((e) => e.type === 'story-passed')) {
          expect(passed).toMatchObject({ attempt: 1 });
        }
        const [run] = await readdir(join(project.repo.dir, '.ralph', 'runs'));
        const state = JSON.parse(await project.read(`.ralph/runs/${run}/state.json`)) as {
          stories: Record<string, { attempts: number; parked?: boolean }>;
        };
        for (const [id, story] of Object.entries(state.stories)) {
          expect(story.parked, id).toBeUndefined();
          expect(story.attempts, id).toBeLessThanOrEqual(1);
        }
        // Every outside failure was seen as one: the runner waited (or stopped), it never judged the story.
        const outside = faults.seen.filter((f) => f.kind !== '401').length;
        if (outside > 0) {
          const waits = events.filter((e) => e.type === 'waiting' || e.type === 'rate-limited');
          const retriedByClaude = events.filter((e) => e.type === 'agent-event').length;
          expect(waits.length + retriedByClaude).toBeGreaterThan(0);
        }

        const tally = (kind: Fault['kind']) => faults.seen.filter((f) => f.kind === kind).length;
        console.log(
          `outside campaign seed ${seed}: ${tally('refused')} refusals, ${tally('5xx')} 5xx, ${tally('401')} 401; ` +
            `exit ${first.exitCode}, ${events.filter((e) => e.type === 'waiting').length} waiting events, ` +
            `${events.filter((e) => e.type === 'iteration-started').length} attempts for ${events.filter((e) => e.type === 'story-passed').length} passes`,
        );
        // Without the faults, the same command finishes the work, each story landed once.
        faults.on = false;
        const again = await project.run(args, { env: ENV });
        expect(again.exitCode, again.stdout.slice(-2000)).toBe(0);
        expect((await featSubjects(project.repo)).sort()).toEqual(
          STORIES.map((s) => `feat: ${s.id} - ${s.title}`),
        );
      } finally {
        await project.cleanup();
      }
    }, 600_000);
  }
});
