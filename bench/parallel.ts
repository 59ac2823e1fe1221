/**
 * `npm run bench:parallel`: wall time of `ralph run --parallel N` for N = 1,
 * 2, 4, 8 on a 16-story PRD whose dependency graph is 8 wide (8 chains of
 * two stories), driving the real Claude Code against a scripted model that
 * takes BENCH_TURN_MS (default 2000) per answer, as a real API would. Prints
 * the speed-up against N = 1, the efficiency against the ideal
 * max(total work / N, critical path), and the peak RSS of ralph itself.
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
import type { Turn } from '../test/support/model-script.js';
import { implement, storyScript } from '../test/support/story-script.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const ralphBin = join(repoRoot, 'dist', 'cli', 'main.js');
const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 2000);
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2,4,8').split(',').map(Number);
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

interface Measured {
  workers: number;
  wallMs: number;
  exitCode: number | null;
  use: ProcessUse;
  landed: number;
  /** Mean time from an attempt's start to its verdict, and from a landing's start to the pass. */
  attemptMs: number;
  landingMs: number;
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

async function measure(workers: number): Promise<Measured> {
  const script = storyScript(plan);
  const server = await startAnthropicServer(script.script);
  const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const repo = await createGitFixture({
    files: {
      'README.md': '# bench\n',
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/demo/prd.json': prdJson(stories),
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
    return { workers, wallMs, exitCode, use: stop(), landed, attemptMs, landingMs };
  } finally {
    await server.close();
    await claude.cleanup();
    await repo.cleanup();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

const machine = `${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}`;
console.log(
  `parallel stories: ${stories.length} stories, ${CHAINS} chains of ${CRITICAL_PATH}, real claude, ${TURN_MS} ms per model answer; ${machine}`,
);
const results: Measured[] = [];
for (const workers of WORKERS) {
  const result = await measure(workers);
  results.push(result);
  console.log(
    `  --parallel ${workers}: ${seconds(result.wallMs)} (exit ${result.exitCode}, ${result.landed}/16 landed; mean attempt ${seconds(result.attemptMs)}${workers > 1 ? `, mean landing ${seconds(result.landingMs)}` : ''})`,
  );
}
const one = results.find((r) => r.workers === 1);
if (one) {
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
}
