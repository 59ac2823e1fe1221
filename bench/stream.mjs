// An agent's stream through ralph: runAgent with the Claude parser, the raw
// log and the collector (signal scan, final words, usage), fed by a stand-in
// agent writing stream-json as fast as the pipe takes it. The floor is the
// same agent's bytes copied to a file by a bare Node process.
// Targets: >= 200 MB/s; peak RSS under 120 MB and flat from 256 MB to 1 GB.
//   node bench/stream.mjs          (after npm run build; BENCH_STREAM_MB=256,1024)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, printRows } from './lib.mjs';

const CHILD = fileURLToPath(new URL('./stream-child.mjs', import.meta.url));
const SIZES_MB = (process.env.BENCH_STREAM_MB ?? '256,1024').split(',').map(Number);
const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 3);

function measure(mode, bytes) {
  const result = spawnSync(process.execPath, [CHILD, mode, String(bytes)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`stream-child ${mode} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

export function runStreamBench() {
  const rows = [];
  for (const mb of SIZES_MB) {
    const bytes = mb * 1e6;
    const samples = { pipeline: [], floor: [] };
    for (let round = 0; round < RUNS; round++) {
      samples.floor.push(measure('floor', bytes));
      samples.pipeline.push(measure('pipeline', bytes));
    }
    for (const s of samples.pipeline)
      if (s.done !== 'US-001') throw new Error('the DONE signal was not read');
    const stat = (mode, f) => median(samples[mode].map(f));
    const wall = (s) => s.bytes / 1e6 / s.seconds;
    const cpu = (s) => s.bytes / 1e6 / s.cpuSeconds;
    const rate = { value: stat('pipeline', wall), floor: stat('floor', wall) };
    const cpuRate = { value: stat('pipeline', cpu), floor: stat('floor', cpu) };
    const label = `${mb} MB`;
    rows.push(
      {
        label: `${label}, MB/s`,
        ...rate,
        ratio: rate.floor / rate.value,
        unit: 'MB/s',
        target: 'target >= 200 MB/s',
      },
      {
        label: `${label}, MB per CPU-second`,
        ...cpuRate,
        ratio: cpuRate.floor / cpuRate.value,
        unit: 'MB/s',
        target: '(this process only)',
      },
      {
        label: `${label}, peak RSS`,
        value: stat('pipeline', (s) => s.maxRssMb),
        floor: stat('floor', (s) => s.maxRssMb),
        unit: 'MB',
        target: 'target < 120 MB, flat',
      },
    );
  }
  printRows(`agent stream (median of ${RUNS} runs each; floor: the agent's bytes copied to a file)`, rows);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runStreamBench();
