/**
 * The role jobs over a bare `origin` on a PRD whose stories all append a
 * line to one file: per round `ralph plan`, one `ralph run --story
 * --worker` per planned story at once (each in its own clone, the real
 * Claude Code against the scripted server), then two `ralph integrate`
 * started together. Races to land are resolved by the integrators (the
 * story's agent, on the tip) or requeued, never counted against a story:
 * every story lands exactly once, no commit the PRD branch ever pointed at
 * holds a conflict marker, and every line is there at the end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import {
  OVERLAP_FILES,
  overlapAgent,
  promptsOnly,
  registryLine,
  SIX_STORIES,
} from '../support/overlap-prds.js';
import { landedOrder, parallelProject } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';
import { createEngine, type Engine, git } from '../support/scale-out-engine.js';

let project: LoopProject | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.cleanup();
  await project?.cleanup();
  engine = undefined;
  project = undefined;
});

interface JsonEvent {
  type: string;
  storyId?: string;
  attempt?: number;
  afterResolution?: boolean;
  landed?: string[];
}

const eventsOf = (stdout: string): JsonEvent[] =>
  stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as JsonEvent);

describe('a PRD of overlapping stories as jobs, origin as the shared state', () => {
  it('every story lands exactly once with its line, none counted for a race, and no conflict marker ever on the PRD branch', async () => {
    project = await parallelProject(prdJson(SIX_STORIES), promptsOnly(SIX_STORIES), {
      gates: ["! git grep -q -E '^(<<<<<<<|>>>>>>>)'"],
      files: OVERLAP_FILES.append,
      wrap: overlapAgent('append', SIX_STORIES),
    });
    engine = await createEngine(project);
    const e = engine;
    // A bare repository keeps no reflog unless asked: every tip the PRD branch takes is checked below.
    await git(e.origin, 'config', 'core.logAllRefUpdates', 'always');

    const integrated: JsonEvent[] = [];
    let rounds = 0;
    for (; rounds < 10; rounds++) {
      const plan = await e.plan(3);
      if (plan.ids.length === 0 && plan.verified.length === 0) {
        expect(plan.complete).toBe(true);
        break;
      }
      const workers = await Promise.all(plan.ids.map((id) => e.startWorker(id)));
      for (const [i, done] of (await Promise.all(workers.map((w) => w.done))).entries()) {
        expect(done.stderr).toBe('');
        expect(done.exitCode).toBe(0);
        // A redo after a race starts again at attempt 1: nothing was counted.
        expect(done.stdout).toMatch(
          new RegExp(`✓ ${workers[i]?.storyId} verified \\(attempt 1\\) and pushed`),
        );
      }
      for (const { result } of await Promise.all([e.integrate(), e.integrate()])) {
        expect(result.stderr).toBe('');
        expect(result.exitCode).toBe(0);
        integrated.push(...eventsOf(result.stdout));
      }
    }
    expect(rounds).toBeLessThan(10);

    const order = await landedOrder({ git: (...a: string[]) => git(e.origin, ...a) }, 'ralph/demo');
    expect([...order].sort()).toEqual(SIX_STORIES.map((s) => s.id).sort());
    for (const s of SIX_STORIES) {
      for (const dep of s.dependsOn ?? []) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(s.id));
    }
    const registry = (await git(e.origin, 'show', 'ralph/demo:REGISTRY.md')).split('\n');
    for (const s of SIX_STORIES) expect(registry.filter((l) => l === registryLine(s.id))).toHaveLength(1);
    const feats = (await git(e.origin, 'log', '--format=%s', 'main..ralph/demo'))
      .split('\n')
      .filter((l) => l.startsWith('feat:'));
    expect(feats.sort()).toEqual(SIX_STORIES.map((s) => `feat: ${s.id} - ${s.title}`).sort());
    const tips = (await git(e.origin, 'reflog', 'show', '--format=%H', 'ralph/demo')).split('\n');
    const commits = (await git(e.origin, 'rev-list', 'main..ralph/demo')).split('\n');
    for (const sha of new Set([...tips, ...commits])) {
      const found = await git(e.origin, 'grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)', sha).catch(() => '');
      expect(found, `conflict markers at ${sha}`).toBe('');
    }

    // The integrators met races and resolved them on the tip with the story's agent; nothing was charged.
    expect(integrated.filter((ev) => ev.type === 'resolution-started').length).toBeGreaterThan(0);
    expect(integrated.filter((ev) => ev.type === 'attempt-failed' || ev.type === 'story-parked')).toEqual([]);
    const passed = integrated.filter((ev) => ev.type === 'story-passed');
    expect(passed.map((ev) => ev.storyId).sort()).toEqual(SIX_STORIES.map((s) => s.id).sort());
    expect(passed.some((ev) => ev.afterResolution === true)).toBe(true);
    expect(await e.remoteRefs('refs/heads/ralph-stories/*')).toEqual([]);
    expect(processesIn(e.root)).toEqual([]);
  }, 300_000);
});
