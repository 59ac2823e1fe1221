// What the benchmark entries share: interleaved runs, medians, and one table
// of figure / floor / ratio. Figures are printed, never asserted: the machine
// may be shared, so only a ratio against a floor measured in the same run means much.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export const RUNS = Number(process.env.BENCH_RUNS ?? 9);

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall-clock milliseconds of one process run to its end; throws if it fails. */
export function timeProcess(command, args, options = {}) {
  const start = performance.now();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
  const ms = performance.now() - start;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
  }
  return ms;
}

/**
 * Runs every case once per round, in turn, for `runs` rounds (after one
 * warm-up round), so a burst of load on the machine hits all of them alike.
 * Returns each case's median.
 */
export function interleaved(cases, runs = RUNS) {
  const samples = cases.map(() => []);
  for (let round = 0; round <= runs; round++) {
    cases.forEach((c, i) => {
      const value = c.run();
      if (round > 0) samples[i].push(value);
    });
  }
  return samples.map(median);
}

/**
 * One row per figure: its value, the floor it is compared with, the ratio,
 * and the target the ratio (or the value) should meet.
 */
export function printRows(title, rows) {
  console.log(title);
  const width = Math.max(...rows.map((r) => r.label.length));
  for (const r of rows) {
    const ratio = r.ratio ?? r.value / r.floor;
    console.log(
      `  ${r.label.padEnd(width)}  ${fmt(r.value, r.unit).padStart(12)}  floor ${fmt(r.floor, r.unit).padStart(12)}  ratio ${ratio.toFixed(2).padStart(5)}x  ${r.target ?? ''}`,
    );
  }
}

function fmt(value, unit) {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}
