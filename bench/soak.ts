/**
 * `npm run bench:soak`: a night in a few minutes. 300 iterations of
 * `ralph run` (300 one-attempt stories) with the real Claude Code against
 * the scripted model answering at once, first headless, then in the TUI
 * under a pseudo-terminal. At iterations 10, 100, 200 and 300 it prints
 * ralph's own RSS twice: as it ran (the median of the samples taken over
 * the ten iterations before), and right after a full garbage collection
 * asked for through the inspector, with the JavaScript heap still in use
 * then. Only what survives a full collection tells a leak from V8 sizing
 * its heap to the work (it grows its young generation over the first
 * hundred or so iterations, and shrinks it again when idle). Then the disk
 * used under .ralph/runs, and whether RSS at the last checkpoint is within
 * 10 % of RSS at 100. Prints figures; asserts nothing.
 *
 * SOAK_CHECKPOINTS (default 10,100,200,300) sets the checkpoints, the last
 * being the number of iterations; SOAK_MODES (default headless,tui) the modes.
 * To look for a leak: SOAK_NODE_ARGS (e.g. `--trace-gc`) goes to ralph's node,
 * SOAK_OUTPUT names a file for the headless run's stdout, and SOAK_RALPH
 * another entry point (e.g. a wrapper that profiles ralph in its process).
 */
import { spawn as spawnChild } from 'node:child_process';
import { openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn as spawnPty } from 'node-pty';
import { startAnthropicServer } from '../test/support/anthropic-server.js';
import { createClaudeEnv } from '../test/support/claude-env.js';
import { createGitFixture } from '../test/support/git-fixture.js';
import { prdJson, type StoryDef } from '../test/support/loop-project.js';
import { implement, storyScript } from '../test/support/story-script.js';
import { collectGarbage, INSPECTOR_URL } from './inspector.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const ralphBin = process.env.SOAK_RALPH ?? join(repoRoot, 'dist', 'cli', 'main.js');
const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');
const CHECKPOINTS = (process.env.SOAK_CHECKPOINTS ?? '10,100,200,300').split(',').map(Number);
const ITERATIONS = Math.max(...CHECKPOINTS);
const MODES = (process.env.SOAK_MODES ?? 'headless,tui').split(',') as Mode[];
/** The checkpoint the last one is compared with. */
const BASELINE = CHECKPOINTS.includes(100) ? 100 : (CHECKPOINTS[1] ?? CHECKPOINTS[0] ?? 1);
/** Iterations before a checkpoint whose RSS samples make its "as it ran" figure. */
const WINDOW = 10;

type Mode = 'headless' | 'tui';

const stories: StoryDef[] = Array.from({ length: ITERATIONS }, (_, i) => {
  const id = `S-${String(i + 1).padStart(3, '0')}`;
  return { id, title: `Step ${i + 1}` };
});
const plan = Object.fromEntries(
  stories.map((s) => [s.id, [implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`)]]),
);

interface Checkpoint {
  /** Median RSS over the iterations before, in kB. */
  rssKb: number | null;
  /** RSS right after a full collection, in kB, and the heap in use then, in bytes. */
  collectedRssKb: number | null;
  heapUsed: number | null;
}

interface Soaked {
  mode: Mode;
  wallMs: number;
  exitCode: number | null;
  checkpoints: Map<number, Checkpoint>;
  peakRssKb: number;
  disk: Map<string, number>;
  passed: number;
}

const rssOf = (pid: number): number | null => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) : null;
  } catch {
    return null;
  }
};

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows the run's events.jsonl, sampling ralph's RSS every 100 ms under
 * the iteration running. When a checkpoint's iteration starts, the samples
 * of the iterations before make its "as it ran" figure; then a full
 * collection is asked for and RSS and heap read right after it.
 */
function followRun(eventsFile: string, pid: number, inspector: () => string | undefined) {
  let offset = 0;
  let partial = '';
  let iteration = 0;
  let finished = false;
  let passed = 0;
  let peakRssKb = 0;
  const samples = new Map<number, number[]>();
  const checkpoints = new Map<number, Checkpoint>();
  const measuring: Promise<void>[] = [];

  const measure = async (at: number) => {
    const before: number[] = [];
    for (let i = Math.max(1, at - WINDOW); i < at; i++) before.push(...(samples.get(i) ?? []));
    const point: Checkpoint = { rssKb: median(before), collectedRssKb: null, heapUsed: null };
    checkpoints.set(at, point);
    const url = inspector();
    if (url === undefined) return;
    try {
      point.heapUsed = (await collectGarbage(url)).usedSize;
      await sleep(200);
      point.collectedRssKb = rssOf(pid);
    } catch {
      // The process ended meanwhile: no figure.
    }
  };

  const read = () => {
    let text: string;
    try {
      text = readFileSync(eventsFile, 'utf8');
    } catch {
      return;
    }
    const fresh = partial + text.slice(offset);
    offset = text.length;
    const lines = fresh.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      const event = JSON.parse(line) as { type: string; iteration?: number };
      if (event.type === 'iteration-started' && event.iteration !== undefined) {
        iteration = event.iteration;
        if (CHECKPOINTS.includes(iteration)) measuring.push(measure(iteration));
      }
      if (event.type === 'story-passed') passed++;
      if (event.type === 'run-finished') finished = true;
    }
  };
  const timer = setInterval(() => {
    read();
    const rss = rssOf(pid);
    if (rss === null || iteration === 0 || finished) return;
    peakRssKb = Math.max(peakRssKb, rss);
    const list = samples.get(iteration) ?? [];
    list.push(rss);
    samples.set(iteration, list);
  }, 100);
  return {
    finished: () => finished,
    /** Waits for the checkpoints' collections: the last one must be read before the run ends. */
    settled: () => Promise.all(measuring),
    stop() {
      clearInterval(timer);
      read();
      return { checkpoints, peakRssKb, passed };
    },
  };
}

/** Bytes under a folder, by its first-level entries (folders summed), and in all. */
function diskUse(dir: string): Map<string, number> {
  const sizeOf = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0);
  };
  const use = new Map<string, number>();
  let total = 0;
  for (const entry of readdirSync(dir)) {
    const size = sizeOf(join(dir, entry));
    use.set(entry, size);
    total += size;
  }
  use.set('total', total);
  return use;
}

async function soak(mode: Mode): Promise<Soaked> {
  const script = storyScript(plan);
  const server = await startAnthropicServer(script.script);
  const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const repo = await createGitFixture({
    files: {
      'README.md': '# soak\n',
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/soak/prd.json': prdJson(stories),
    },
  });
  const runDir = join(repo.dir, '.ralph', 'runs', 'soak');
  const env = { ...claude.env, RALPH_AGENT_PATH: claudeBin };
  const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The inspector on a free port of the loopback, for the checkpoints' full collections.
  const args = ['--inspect=127.0.0.1:0', ...nodeArgs, ralphBin, 'run', 'soak', '--no-worktree'];
  let inspector: string | undefined;
  const findInspector = (text: string) => {
    inspector ??= INSPECTOR_URL.exec(text)?.[0];
  };
  try {
    const started = Date.now();
    let exitCode: number | null;
    let follow: ReturnType<typeof followRun>;
    if (mode === 'headless') {
      const output = process.env.SOAK_OUTPUT ? openSync(process.env.SOAK_OUTPUT, 'w') : 'ignore';
      const child = spawnChild(process.execPath, [...args, '--headless'], {
        cwd: repo.dir,
        env,
        stdio: ['ignore', output, 'pipe'],
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        findInspector(text);
        if (!/Debugger (listening|attached)|For help, see|Waiting for the debugger/.test(text))
          process.stderr.write(text);
      });
      follow = followRun(join(runDir, 'events.jsonl'), child.pid ?? 0, () => inspector);
      // Without --max-iterations the run ends after its last story: the last checkpoint is read as it starts.
      exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    } else {
      const term = spawnPty(process.execPath, args, {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        cwd: repo.dir,
        env: { ...env, TERM: 'xterm-256color' },
      });
      let screen = '';
      term.onData((data) => {
        findInspector(data);
        // Only the latest frames are looked at; the rest is a terminal's business.
        screen = (screen + data).slice(-65_536);
      });
      const exited = new Promise<number>((resolve) => term.onExit(({ exitCode: code }) => resolve(code)));
      while (!screen.includes('press s to start')) await sleep(50);
      follow = followRun(join(runDir, 'events.jsonl'), term.pid, () => inspector);
      term.write('s');
      while (!follow.finished()) await sleep(200);
      await follow.settled();
      // Let the completion screen draw, then quit.
      await sleep(1000);
      term.write('q');
      exitCode = await exited;
    }
    await follow.settled();
    const wallMs = Date.now() - started;
    const { checkpoints, peakRssKb, passed } = follow.stop();
    return { mode, wallMs, exitCode, checkpoints, peakRssKb, passed, disk: diskUse(runDir) };
  } finally {
    await server.close();
    await claude.cleanup();
    await repo.cleanup();
  }
}

const mb = (kb: number | null | undefined) => (kb == null ? '—' : `${(kb / 1024).toFixed(1)} MB`);
const size = (bytes: number | undefined) =>
  bytes === undefined
    ? '—'
    : bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${(bytes / 1024).toFixed(0)} kB`;
const change = (from: number | null | undefined, to: number | null | undefined) =>
  from == null || to == null ? null : (to - from) / from;
const percent = (ratio: number | null) =>
  ratio === null ? '—' : `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %`;

console.log(
  `soak: ${ITERATIONS} iterations (one-attempt stories), real claude, scripted model answering at once; ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}`,
);
for (const mode of MODES) {
  const r = await soak(mode);
  const last = CHECKPOINTS[CHECKPOINTS.length - 1] ?? ITERATIONS;
  const at = (c: number) => r.checkpoints.get(c);
  console.log('');
  console.log(
    `  ${mode}: ${(r.wallMs / 1000).toFixed(0)} s, exit ${r.exitCode}, ${r.passed}/${ITERATIONS} passed, ${(r.wallMs / ITERATIONS / 1000).toFixed(2)} s per iteration`,
  );
  console.log(
    `    RSS of ralph after a full GC at iteration ${CHECKPOINTS.map((c) => `${c}: ${mb(at(c)?.collectedRssKb)}`).join(', ')}`,
  );
  console.log(
    `    JS heap in use then: ${CHECKPOINTS.map((c) => `${c}: ${mb((at(c)?.heapUsed ?? 0) / 1024 || null)}`).join(', ')}`,
  );
  console.log(
    `    RSS as it ran (median of the ${WINDOW} iterations before): ${CHECKPOINTS.map((c) => `${c}: ${mb(at(c)?.rssKb)}`).join(', ')}; peak ${mb(r.peakRssKb)}`,
  );
  const collected = change(at(BASELINE)?.collectedRssKb, at(last)?.collectedRssKb);
  const heap = change(at(BASELINE)?.heapUsed, at(last)?.heapUsed);
  const ran = change(at(BASELINE)?.rssKb, at(last)?.rssKb);
  const verdict =
    collected === null
      ? ''
      : Math.abs(collected) <= 0.1
        ? '(within 10 %: no leak across the night)'
        : '(more than 10 %: look for a leak)';
  console.log(
    `    ${last} against ${BASELINE}: RSS after GC ${percent(collected)} ${verdict}; JS heap ${percent(heap)}; RSS as it ran ${percent(ran)}`,
  );
  const disk = [...r.disk].filter(([name]) => name !== 'total');
  console.log(
    `    disk under .ralph/runs: ${size(r.disk.get('total'))} (${disk.map(([name, bytes]) => `${name} ${size(bytes)}`).join(', ')}), ${size((r.disk.get('total') ?? 0) / ITERATIONS)} per iteration`,
  );
}
