/**
 * `npm run bench:parallel`: wall time of `ralph run --parallel N`, driving
 * the real Claude Code against a scripted model that takes BENCH_TURN_MS
 * (default 2000) per answer, as a real API would. Two PRDs
 * (`BENCH_PRDS=chains,overlap`, both by default):
 *
 * - chains: 16 stories whose dependency graph is 8 wide (8 chains of two),
 *   at N = 1, 2, 4, 8 (`BENCH_WORKERS`). Prints the speed-up against N = 1,
 *   the efficiency against the ideal max(total work / N, critical path),
 *   and the peak RSS of ralph itself.
 * - overlap: 6 stories (two dependency chains and one story on its own),
 *   each writing its own file and appending a line to one shared
 *   REGISTRY.md, at N = 1 and 3 (`BENCH_OVERLAP_WORKERS`). A story reads
 *   `BENCH_OVERLAP_READS` (default 6) times before its work, so it takes 8
 *   model answers; a resolution takes 2. Every story that lands after another
 *   started meanwhile conflicts in REGISTRY.md and is resolved by its agent.
 *   Prints wall time, agent turns, landings, resolutions and requeues, and
 *   the speed-up of N = 3 over N = 1.
 *
 * Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnthropicServer } from '../test/support/anthropic-server.js';
import { createClaudeEnv } from '../test/support/claude-env.js';
import { createGitFixture } from '../test/support/git-fixture.js';
import { prdJson, type StoryDef } from '../test/support/loop-project.js';
import type { Script, Turn } from '../test/support/model-script.js';
import { OVERLAP_FILES, overlapAgent, promptsOnly, SIX_STORIES } from '../test/support/overlap-prds.js';
import { implement, type StoryPlan, storyScript } from '../test/support/story-script.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const ralphBin = join(repoRoot, 'dist', 'cli', 'main.js');
const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 2000);
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2,4,8').split(',').map(Number);
const OVERLAP_WORKERS = (process.env.BENCH_OVERLAP_WORKERS ?? '1,3').split(',').map(Number);
const PRDS = (process.env.BENCH_PRDS ?? 'chains,overlap').split(',');
/** Turns an overlapping story spends reading before its work (a story's own work, then DONE, follow). */
const OVERLAP_READS = Number(process.env.BENCH_OVERLAP_READS ?? 6);
const CHAINS = 8;

const stories: StoryDef[] = [];
for (let i = 1; i <= CHAINS; i++) stories.push({ id: `A-${i}`, title: `First ${i}` });
for (let i = 1; i <= CHAINS; i++) stories.push({ id: `B-${i}`, title: `Second ${i}`, dependsOn: [`A-${i}`] });
/** The longest dependency chain, in stories. */
const CRITICAL_PATH = 2;

const slow = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...t, delayMs: TURN_MS }));
const plan = Object.fromEntries(
  stories.map((s) => [s.id, [slow(implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`))]]),
);

/** A PRD to measure: its stories, the scripted agent, the files it starts from. */
interface Scenario {
  stories: StoryDef[];
  plan: StoryPlan;
  wrap?: (script: Script) => Script;
  files?: Record<string, string>;
}

interface Measured {
  workers: number;
  wallMs: number;
  exitCode: number | null;
  use: ProcessUse;
  landed: number;
  /** Mean time from an attempt's start to its verdict, and from a landing's start to the pass. */
  attemptMs: number;
  landingMs: number;
  /** Model answers in agent conversations (side calls aside): the agent work the run cost. */
  turns: number;
  resolutions: number;
  requeues: number;
}

/** Mean time between each story's `from` event and its `to` event in the run's event log. */
function meanSpan(
  events: { type: string; at: string; storyId?: string }[],
  from: string,
  to: string,
): number {
  const spans: number[] = [];
  for (const start of events.filter((e) => e.type === from)) {
    const end = events.find((e) => e.type === to && e.storyId === start.storyId && e.at >= start.at);
    if (end) spans.push(Date.parse(end.at) - Date.parse(start.at));
  }
  return spans.length === 0 ? 0 : spans.reduce((a, b) => a + b, 0) / spans.length;
}

interface ProcessUse {
  peakRssKb: number;
  /** CPU seconds of ralph itself, and of the processes it waited for (the agents, git, gates). */
  cpuSelf: number;
  cpuChildren: number;
}

/** Peak RSS (VmHWM) and CPU time of one process, sampled while it runs (the last sample stands). */
function watchProcess(pid: number): () => ProcessUse {
  const use: ProcessUse = { peakRssKb: 0, cpuSelf: 0, cpuChildren: 0 };
  const sample = () => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm?.[1]) use.peakRssKb = Math.max(use.peakRssKb, Number(hwm[1]));
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name: utime, stime, cutime, cstime are the 14th to 17th, in ticks of 1/100 s.
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      use.cpuSelf = ((fields[11] ?? 0) + (fields[12] ?? 0)) / 100;
      use.cpuChildren = ((fields[13] ?? 0) + (fields[14] ?? 0)) / 100;
    } catch {
      // Gone.
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    return use;
  };
}

async function measure(scenario: Scenario, workers: number): Promise<Measured> {
  const script = storyScript(scenario.plan);
  const server = await startAnthropicServer(scenario.wrap ? scenario.wrap(script.script) : script.script);
  const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const repo = await createGitFixture({
    files: {
      'README.md': '# bench\n',
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/demo/prd.json': prdJson(scenario.stories),
      ...scenario.files,
    },
  });
  try {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [ralphBin, 'run', 'demo', '--headless', '--parallel', String(workers)],
      {
        cwd: repo.dir,
        env: {
          ...claude.env,
          RALPH_AGENT_PATH: claudeBin,
          ...(process.env.BENCH_GIT_TRACE ? { GIT_TRACE2_EVENT: process.env.BENCH_GIT_TRACE } : {}),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const stop =
      child.pid === undefined
        ? () => ({ peakRssKb: 0, cpuSelf: 0, cpuChildren: 0 })
        : watchProcess(child.pid);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wallMs = Date.now() - started;
    const log = await repo.git('log', '--format=%s', 'main..ralph/demo');
    const landed = log.split('\n').filter((s) => /^chore\(ralph\): .* passed$/.test(s)).length;
    const eventLog = readFileSync(join(repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8');
    if (process.env.BENCH_EVENTS_DIR)
      writeFileSync(join(process.env.BENCH_EVENTS_DIR, `events-${workers}.jsonl`), eventLog);
    const events = eventLog
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; at: string; storyId?: string });
    const attemptMs = meanSpan(
      events,
      'iteration-started',
      workers === 1 ? 'story-passed' : 'story-verified',
    );
    const landingMs = meanSpan(events, 'integration-started', 'story-passed');
    return {
      workers,
      wallMs,
      exitCode,
      use: stop(),
      landed,
      attemptMs,
      landingMs,
      turns: server.modelCalls().length,
      resolutions: events.filter((e) => e.type === 'resolution-started').length,
      requeues: events.filter((e) => e.type === 'story-requeued').length,
    };
  } finally {
    await server.close();
    await claude.cleanup();
    await repo.cleanup();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

const machine = `${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}`;

if (PRDS.includes('chains')) await benchChains();
if (PRDS.includes('overlap')) await benchOverlap();

async function benchChains(): Promise<void> {
  console.log(
    `parallel stories: ${stories.length} stories, ${CHAINS} chains of ${CRITICAL_PATH}, real claude, ${TURN_MS} ms per model answer; ${machine}`,
  );
  const results: Measured[] = [];
  for (const workers of WORKERS) {
    const result = await measure({ stories, plan }, workers);
    results.push(result);
    console.log(
      `  --parallel ${workers}: ${seconds(result.wallMs)} (exit ${result.exitCode}, ${result.landed}/16 landed; mean attempt ${seconds(result.attemptMs)}${workers > 1 ? `, mean landing ${seconds(result.landingMs)}` : ''})`,
    );
  }
  const one = results.find((r) => r.workers === 1);
  if (!one) return;
  // Total work is what one worker takes; a story is 1/16 of it, and no schedule beats the longest chain.
  const perStory = one.wallMs / stories.length;
  console.log('');
  console.log(
    '  N   wall      speed-up  ideal     efficiency  ralph peak RSS  per worker  CPU ralph / agents+git',
  );
  for (const r of results) {
    const ideal = Math.max(one.wallMs / r.workers, perStory * CRITICAL_PATH);
    const perWorker =
      r.workers === 1 ? r.use.peakRssKb : (r.use.peakRssKb - one.use.peakRssKb) / (r.workers - 1);
    console.log(
      `  ${String(r.workers).padEnd(3)} ${seconds(r.wallMs).padEnd(9)} ${`${(one.wallMs / r.wallMs).toFixed(2)}x`.padEnd(9)} ${seconds(ideal).padEnd(9)} ${`${((100 * ideal) / r.wallMs).toFixed(0)} %`.padEnd(11)} ${mb(r.use.peakRssKb).padEnd(15)} ${(r.workers === 1 ? '' : `+${mb(perWorker)}`).padEnd(11)} ${r.use.cpuSelf.toFixed(1)} s / ${r.use.cpuChildren.toFixed(1)} s`,
    );
  }
  console.log('');
}

/** The overlapping PRD: every story appends to REGISTRY.md, so stories started together race to land. */
async function benchOverlap(): Promise<void> {
  const agent = { delayMs: TURN_MS, thinking: OVERLAP_READS };
  const scenario: Scenario = {
    stories: SIX_STORIES,
    plan: promptsOnly(SIX_STORIES),
    wrap: overlapAgent('append', SIX_STORIES, agent),
    files: OVERLAP_FILES.append,
  };
  const storyTurns = OVERLAP_READS + 2;
  console.log(
    `overlapping stories: ${SIX_STORIES.length} stories (chains of 3 and 2, one alone), each appending a line to REGISTRY.md; ${storyTurns} model answers a story, 2 a resolution; real claude, ${TURN_MS} ms per model answer; ${machine}`,
  );
  const results: Measured[] = [];
  for (const workers of OVERLAP_WORKERS) results.push(await measure(scenario, workers));
  const one = results.find((r) => r.workers === 1);
  console.log('  N   wall      speed-up  exit  landed  agent turns  resolutions  requeues');
  for (const r of results) {
    const speedUp = one ? `${(one.wallMs / r.wallMs).toFixed(2)}x` : '';
    console.log(
      `  ${String(r.workers).padEnd(3)} ${seconds(r.wallMs).padEnd(9)} ${speedUp.padEnd(9)} ${String(r.exitCode).padEnd(5)} ${`${r.landed}/${SIX_STORIES.length}`.padEnd(7)} ${String(r.turns).padEnd(12)} ${String(r.resolutions).padEnd(12)} ${r.requeues}`,
    );
  }
}
