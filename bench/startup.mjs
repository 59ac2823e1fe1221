// Start-up of the built CLI against `node -e 0`, the floor of any Node program.
// Targets: --version, list and status each within 2x the floor; status on a
// 5,000-story prd.json under 300 ms.
//   node bench/startup.mjs        (after npm run build)
//   BENCH_RALPH=path/to/main.js node bench/startup.mjs   to time another build
//   BENCH_RALPH_ALT=path/to/main.js ...                  to time a second build in the same runs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, printRows, RUNS, timeProcess } from './lib.mjs';

const RALPH = process.env.BENCH_RALPH ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ALT = process.env.BENCH_RALPH_ALT;
const BIG_STORIES = 5000;

function project(dir, setUp) {
  mkdirSync(dir);
  const git = (...args) => spawnSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git(
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  setUp(dir);
  return dir;
}

export function bigPrd(n) {
  const id = (i) => `US-${String(i).padStart(4, '0')}`;
  return {
    project: 'Bench',
    branchName: 'ralph/big',
    description: 'A large PRD.',
    userStories: Array.from({ length: n }, (_, i) => ({
      id: id(i + 1),
      title: `Story ${i + 1}`,
      description: 'As a user I want something.',
      acceptanceCriteria: ['It works', 'Typecheck passes'],
      priority: (i % 7) + 1,
      passes: i < n / 2,
      ...(i > 0 ? { dependsOn: [id(i)] } : {}),
    })),
  };
}

export function runStartupBench() {
  const base = mkdtempSync(join(tmpdir(), 'ralph-bench-startup-'));
  try {
    // `ralph init` scaffolds the config and one example PRD: an ordinary small project.
    const small = project(join(base, 'small'), (dir) => {
      spawnSync(process.execPath, [RALPH, 'init'], { cwd: dir, stdio: 'ignore' });
    });
    const big = project(join(base, 'big'), (dir) => {
      mkdirSync(join(dir, '.ralph', 'prds', 'big'), { recursive: true });
      writeFileSync(
        join(dir, '.ralph', 'prds', 'big', 'prd.json'),
        JSON.stringify(bigPrd(BIG_STORIES), null, 2),
      );
    });
    const commands = [
      { label: 'ralph --version', cwd: small, args: ['--version'], target: 'target <= 2x' },
      { label: 'ralph list', cwd: small, args: ['list'], target: 'target <= 2x' },
      { label: 'ralph status', cwd: small, args: ['status'], target: 'target <= 2x' },
      {
        label: `ralph status, ${BIG_STORIES} stories`,
        cwd: big,
        args: ['status'],
        target: 'target < 300 ms',
      },
    ];
    const builds = ALT ? [RALPH, ALT] : [RALPH];
    const cases = builds.flatMap((bin) =>
      commands.map((c) => ({ run: () => timeProcess(process.execPath, [bin, ...c.args], { cwd: c.cwd }) })),
    );
    const [floor, ...times] = interleaved([
      { run: () => timeProcess(process.execPath, ['-e', '0']) },
      ...cases,
    ]);
    const rows = builds.flatMap((bin, b) =>
      commands.map((c, i) => ({
        label: builds.length > 1 ? `${c.label} (${b === 0 ? 'this build' : bin})` : c.label,
        value: times[b * commands.length + i],
        floor,
        unit: 'ms',
        target: c.target,
      })),
    );
    printRows(`start-up (median of ${RUNS} interleaved runs; floor: node -e 0)`, rows);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runStartupBench();
