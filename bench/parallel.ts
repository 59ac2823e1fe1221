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
import { readFileSync } from 'node:fs';
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
  peakRssKb: number;
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

/** Peak RSS (VmHWM) of one process, sampled while it runs. */
function watchPeakRss(pid: number): () => number {
  let peak = 0;
  const sample = () => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm?.[1]) peak = Math.max(peak, Number(hwm[1]));
    } catch {
      // Gone.
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    return peak;
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
    const stop = child.pid === undefined ? () => 0 : watchPeakRss(child.pid);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wallMs = Date.now() - started;
    const log = await repo.git('log', '--format=%s', 'main..ralph/demo');
    const landed = log.split('\n').filter((s) => /^chore\(ralph\): .* passed$/.test(s)).length;
    const events = readFileSync(join(repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; at: string; storyId?: string });
    const attemptMs = meanSpan(
      events,
      'iteration-started',
      workers === 1 ? 'story-passed' : 'story-verified',
    );
    const landingMs = meanSpan(events, 'integration-started', 'story-passed');
    return { workers, wallMs, exitCode, peakRssKb: stop(), landed, attemptMs, landingMs };
  } finally {
    await server.close();
    await claude.cleanup();
    await repo.cleanup();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

console.log(
  `parallel stories: ${stories.length} stories, ${CHAINS} chains of ${CRITICAL_PATH}, real claude, ${TURN_MS} ms per model answer`,
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
  console.log('  N   wall      speed-up  ideal     efficiency  ralph peak RSS  per worker');
  for (const r of results) {
    const ideal = Math.max(one.wallMs / r.workers, perStory * CRITICAL_PATH);
    const perWorker = r.workers === 1 ? r.peakRssKb : (r.peakRssKb - one.peakRssKb) / (r.workers - 1);
    console.log(
      `  ${String(r.workers).padEnd(3)} ${seconds(r.wallMs).padEnd(9)} ${`${(one.wallMs / r.wallMs).toFixed(2)}x`.padEnd(9)} ${seconds(ideal).padEnd(9)} ${`${((100 * ideal) / r.wallMs).toFixed(0)} %`.padEnd(11)} ${mb(r.peakRssKb).padEnd(15)} ${r.workers === 1 ? '' : `+${mb(perWorker)}`}`,
    );
  }
}
