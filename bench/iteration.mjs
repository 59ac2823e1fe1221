// Per-iteration overhead: a 10-story `ralph run` with the real `claude`
// (the pinned devDependency) against the scripted model server of the tests,
// every story written, committed and said DONE by the agent. The floor is
// the same agent run directly in a copy of the project, one process per
// story with the prompt ralph sent (as the model server received it), plus
// one `git rev-parse HEAD`.
// ralph's own time per iteration is read from events.jsonl: the gap between
// one story's pass and the next, less the agent's run and the gates.
// Targets: the run within 1.05x the floor; ralph's own time <= 60 ms per iteration.
// The hardening outside the box (src/attempt/attempt-guards.ts: the git layout
// check, the refs snapshot and check, the .ralph folder's snapshot and check)
// is timed on its own in each round's finished project, as an attempt runs it:
// target < 20 ms per iteration.
// With bubblewrap on PATH, each round also runs the same PRD with --sandbox:
// the sandbox's cost per iteration is the difference to the plain run, shown
// against the cost of starting bwrap once with the same namespaces.
//   node bench/iteration.mjs       (after npm run build; BENCH_ITERATION_RUNS=3, BENCH_STORIES=10)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BWRAP_ISOLATION } from '../dist/core/bwrap-args.js';
import { median, printRows, timeProcess } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RALPH = join(ROOT, 'dist', 'cli', 'main.js');
const CLAUDE = join(ROOT, 'node_modules', '.bin', 'claude');
const RUNS = Number(process.env.BENCH_ITERATION_RUNS ?? 3);
const STORIES = Number(process.env.BENCH_STORIES ?? 10);
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** The tests' scripted server and story script, bundled from TypeScript for plain Node. */
async function loadSupport(dir) {
  const outfile = join(dir, 'support.mjs');
  await build({
    stdin: {
      contents: [
        "export { startAnthropicServer } from './test/support/anthropic-server.ts';",
        "export { storyScript, implement } from './test/support/story-script.ts';",
        "export { createClaudeEnv } from './test/support/claude-env.ts';",
        "export { prdJson } from './test/support/loop-project.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

const stories = Array.from({ length: STORIES }, (_, i) => {
  const id = `US-${String(i + 1).padStart(3, '0')}`;
  return { id, title: `Add file ${i + 1}`, file: `file-${i + 1}.txt` };
});

function git(cwd, ...args) {
  const result = spawnSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function project(base, name, support) {
  const dir = join(base, name);
  spawnSync('mkdir', ['-p', dir]);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Bench');
  git(dir, 'config', 'user.email', 'bench@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  writeFileSync(join(dir, 'prd.json'), support.prdJson(stories));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'chore: initial commit');
  return dir;
}

function waitFor(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr}`)),
    );
  });
}

/** One scripted model per measurement, so every story's first attempt is the one that passes. */
async function withServer(support, fn) {
  const plan = Object.fromEntries(
    stories.map((s) => [s.id, [support.implement(s.id, s.title, s.file, `${s.title}\n`)]]),
  );
  const server = await support.startAnthropicServer(support.storyScript(plan).script);
  const claude = await support.createClaudeEnv(server.url, { maxRetries: 0 });
  try {
    return await fn({ ...claude.env, ...GIT_ENV }, server);
  } finally {
    await server.close();
    await claude.cleanup();
  }
}

/** The agent alone: each story's prompt straight to `claude`, after the HEAD ralph would record. */
async function floor(support, dir, prompts) {
  return withServer(support, async (env) => {
    const start = performance.now();
    for (const prompt of prompts) {
      git(dir, 'rev-parse', 'HEAD');
      await waitFor(
        CLAUDE,
        ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--', prompt],
        { cwd: dir, env },
      );
    }
    return performance.now() - start;
  });
}

/** The run's wall time, and the prompt of each agent it started as the model server received it. */
async function ralphRun(support, dir, extraArgs = []) {
  return withServer(support, async (env, server) => {
    const start = performance.now();
    await waitFor(process.execPath, [RALPH, 'run', 'prd.json', '--headless', '--no-worktree', ...extraArgs], {
      cwd: dir,
      env: { ...env, RALPH_AGENT_PATH: CLAUDE },
    });
    const ms = performance.now() - start;
    const prompts = server.modelCalls().flatMap((call) => (call.turn === 0 ? [call.prompt] : []));
    return { ms, prompts };
  });
}

/** Every story passed on its first attempt, so the floor has one agent per story to match. */
function checkPassed(dir, prompts) {
  const subjects = git(dir, 'log', '--format=%s').split('\n');
  const passed = stories.filter((s) => subjects.includes(`feat: ${s.id} - ${s.title}`));
  if (passed.length !== STORIES) throw new Error(`the run passed ${passed.length} of ${STORIES} stories`);
  if (prompts.length !== STORIES)
    throw new Error(`the run started ${prompts.length} agents for ${STORIES} stories`);
}

/** ralph's own milliseconds per iteration: each pass-to-pass gap less the agent and the gates. */
function ownTimes(dir) {
  const runs = join(dir, '.ralph', 'runs');
  const [name] = readdirSync(runs);
  const events = readFileSync(join(runs, name, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const own = [];
  let since;
  let outside = 0;
  for (const e of events) {
    const at = Date.parse(e.at);
    if (e.type === 'run-started') since = at;
    if (e.type === 'agent-exited') outside += e.durationMs;
    if (e.type === 'check-finished') outside += e.durationMs;
    if (e.type === 'story-passed') {
      own.push(at - since - outside);
      since = at;
      outside = 0;
    }
  }
  return own;
}

/**
 * What one attempt's guards cost, in a finished run's project: taken before
 * the agent, settled after it and again after the gates. Plus the layout
 * check each of ralph's git commands makes, times the git commands an
 * iteration runs (counted from a traced run: GIT_COMMANDS).
 */
const GIT_COMMANDS = 20;
async function hardeningCost(dir) {
  const { guardAttempt } = await import('../dist/attempt/attempt-guards.js');
  const { checkGitLayout, guardGitLayout } = await import('../dist/git/layout-guard.js');
  const head = git(dir, 'rev-parse', 'HEAD');
  const attempt = [];
  for (let i = 0; i < 11; i++) {
    const start = performance.now();
    const guards = await guardAttempt(dir, ['prd.json']);
    await guards.settle(head);
    await guards.settle(head);
    attempt.push(performance.now() - start);
  }
  guardGitLayout(dir);
  const start = performance.now();
  for (let i = 0; i < 1000; i++) checkGitLayout(dir);
  const perCheck = (performance.now() - start) / 1000;
  return median(attempt.slice(1)) + GIT_COMMANDS * perCheck;
}

/** bwrap on PATH and able to make its namespaces here: the sandboxed rounds run. */
function bwrapPath() {
  const found = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
  if (found === '') return null;
  const probe = spawnSync(found, [...BWRAP_START, '--', 'true']);
  return probe.status === 0 ? found : null;
}

/** What every sandboxed command pays at least: bwrap making its namespaces and mounts, then exec. */
const BWRAP_START = [
  ...BWRAP_ISOLATION,
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
];

export async function runIterationBench() {
  const base = mkdtempSync(join(tmpdir(), 'ralph-bench-iteration-'));
  const bwrap = bwrapPath();
  if (bwrap === null) console.log('  (no working bwrap on PATH: the --sandbox rounds are skipped)');
  try {
    const support = await loadSupport(base);
    const samples = {
      run: [],
      floor: [],
      own: [],
      sandboxed: [],
      perIteration: [],
      sandboxedOwn: [],
      bwrap: [],
      hardening: [],
    };
    for (let round = 0; round <= RUNS; round++) {
      const runDir = project(base, `run-${round}`, support);
      const { ms: run, prompts } = await ralphRun(support, runDir);
      checkPassed(runDir, prompts);
      const fl = await floor(support, project(base, `floor-${round}`, support), prompts);
      let sandboxed;
      let sandboxDir;
      if (bwrap !== null) {
        sandboxDir = project(base, `sandboxed-${round}`, support);
        const sb = await ralphRun(support, sandboxDir, ['--sandbox']);
        checkPassed(sandboxDir, sb.prompts);
        sandboxed = sb.ms;
      }
      // Round 0 warms the caches (Node's, git's, the file system's) for both.
      if (round === 0) continue;
      samples.run.push(run);
      samples.floor.push(fl);
      samples.own.push(median(ownTimes(runDir)));
      samples.hardening.push(await hardeningCost(runDir));
      let line = `  round ${round}: run ${run.toFixed(0)} ms, floor ${fl.toFixed(0)} ms, ralph ${samples.own.at(-1).toFixed(1)} ms/iteration (guards ${samples.hardening.at(-1).toFixed(1)} ms)`;
      if (sandboxed !== undefined) {
        samples.sandboxed.push(sandboxed);
        // Paired with the plain run of the same round: a burst of load on the machine hits both.
        samples.perIteration.push((sandboxed - run) / STORIES);
        samples.sandboxedOwn.push(median(ownTimes(sandboxDir)));
        samples.bwrap.push(
          median([0, 1, 2, 3, 4].map(() => timeProcess(bwrap, [...BWRAP_START, '--', 'true']))),
        );
        line += `, --sandbox ${sandboxed.toFixed(0)} ms (${samples.perIteration.at(-1).toFixed(0)} ms/iteration more)`;
      }
      console.log(line);
    }
    const run = median(samples.run);
    const fl = median(samples.floor);
    printRows(`iteration overhead, ${STORIES} stories with claude (median of ${RUNS} runs)`, [
      {
        label: `ralph run, ${STORIES} stories`,
        value: run,
        floor: fl,
        unit: 'ms',
        target: 'target <= 1.05x',
      },
      {
        label: "ralph's own time per iteration",
        value: median(samples.own),
        floor: (run - fl) / STORIES,
        ratio: median(samples.own) / 60,
        unit: 'ms',
        target: 'target <= 60 ms (ratio to 60 ms; "floor" column: (run - floor) / stories)',
      },
      {
        label: 'the hardening outside the box per iteration',
        value: median(samples.hardening),
        floor: 20,
        ratio: median(samples.hardening) / 20,
        unit: 'ms',
        target: `target < 20 ms (ratio to 20 ms): layout check, refs and .ralph snapshots and checks (x2), ${GIT_COMMANDS} git layout checks`,
      },
    ]);
    if (samples.sandboxed.length > 0) {
      const sandboxed = median(samples.sandboxed);
      const start = median(samples.bwrap);
      printRows(`the same ${STORIES} stories with --sandbox (bubblewrap; median of ${RUNS} runs)`, [
        {
          label: `ralph run --sandbox, ${STORIES} stories`,
          value: sandboxed,
          floor: run,
          unit: 'ms',
          target: '"floor": the same run without --sandbox',
        },
        {
          label: 'the sandbox per iteration',
          value: median(samples.perIteration),
          floor: start,
          unit: 'ms',
          target: 'median over rounds of (run --sandbox - run) / stories; "floor": one bare bwrap start',
        },
        {
          label: "ralph's own time per iteration, sandboxed",
          value: median(samples.sandboxedOwn),
          floor: median(samples.own),
          unit: 'ms',
          target: '"floor": unsandboxed (the sandbox is planned per command: git rev-parse, paths)',
        },
      ]);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runIterationBench();
