/**
 * `npm run bench:scale-out`: the same PRD run two ways on this machine, with
 * the real Claude Code against a scripted model that takes BENCH_TURN_MS
 * (default 2000) per answer:
 *   - as jobs (the simulation of the engine: a bare origin, `ralph plan`,
 *     three `ralph run --story --worker` at once each in a fresh clone, two
 *     `ralph integrate` together; repeated until the plan is empty), and
 *   - as one `ralph run --parallel 3`.
 * Prints both wall times and their ratio; asserts nothing. The PRD is
 * BENCH_CHAINS (default 3) chains of two stories.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prdJson, type StoryDef } from '../test/support/loop-project.js';
import type { Turn } from '../test/support/model-script.js';
import { landedOrder, parallelProject } from '../test/support/parallel-project.js';
import { createEngine, git } from '../test/support/scale-out-engine.js';
import { implement } from '../test/support/story-script.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const ralphBin = join(repoRoot, 'dist', 'cli', 'main.js');
const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 2000);
const CHAINS = Number(process.env.BENCH_CHAINS ?? 3);
const WORKERS = 3;

const stories: StoryDef[] = [];
for (let i = 1; i <= CHAINS; i++) stories.push({ id: `A-${i}`, title: `First ${i}` });
for (let i = 1; i <= CHAINS; i++) stories.push({ id: `B-${i}`, title: `Second ${i}`, dependsOn: [`A-${i}`] });
const slow = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...t, delayMs: TURN_MS }));
const plan = Object.fromEntries(
  stories.map((s) => [s.id, [slow(implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`))]]),
);

/** Rounds of plan -> workers -> two integrators until the plan is empty. */
async function asJobs(): Promise<{ wallMs: number; landed: number; rounds: number }> {
  const project = await parallelProject(prdJson(stories), plan);
  const engine = await createEngine(project, { ralph: ralphBin, agent: claudeBin });
  try {
    const started = Date.now();
    let rounds = 0;
    for (;;) {
      const next = await engine.plan(WORKERS);
      if (next.ids.length === 0) break;
      rounds++;
      const workers = await Promise.all(next.ids.map((id) => engine.startWorker(id)));
      await Promise.all(workers.map((w) => w.done));
      await Promise.all([engine.integrate(), engine.integrate()]);
    }
    const wallMs = Date.now() - started;
    const landed = await landedOrder({ git: (...a: string[]) => git(engine.origin, ...a) }, 'ralph/demo');
    return { wallMs, landed: landed.length, rounds };
  } finally {
    await engine.cleanup();
    await project.cleanup();
  }
}

/** One `ralph run --parallel 3` in the project's own checkout. */
async function onOneMachine(): Promise<{ wallMs: number; landed: number; exitCode: number | null }> {
  const project = await parallelProject(prdJson(stories), plan);
  try {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [ralphBin, 'run', 'demo', '--headless', '--parallel', String(WORKERS)],
      {
        cwd: project.repo.dir,
        env: { ...project.claude.env, RALPH_AGENT_PATH: claudeBin },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wallMs = Date.now() - started;
    return { wallMs, landed: (await landedOrder(project.repo, 'ralph/demo')).length, exitCode };
  } finally {
    await project.cleanup();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `scale-out: ${stories.length} stories (${CHAINS} chains of 2), ${WORKERS} workers, real claude, ${TURN_MS} ms per model answer; ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}`,
);
const local = await onOneMachine();
console.log(
  `  ralph run --parallel ${WORKERS}:            ${seconds(local.wallMs)} (exit ${local.exitCode}, ${local.landed}/${stories.length} landed)`,
);
const jobs = await asJobs();
console.log(
  `  as jobs (plan/worker/integrate):   ${seconds(jobs.wallMs)} (${jobs.rounds} rounds, ${jobs.landed}/${stories.length} landed)`,
);
console.log(`  ratio jobs / one machine:          ${(jobs.wallMs / local.wallMs).toFixed(2)}x`);
