// Signal scanning over 50 MB of assistant text, against a floor: one regex
// pass over the same text finding every place a signal could start (what any
// scanner must at least do). Throughput is per CPU-second of this process,
// so other work on a shared machine does not count. Target: >= 200 MB/s.
//   node bench/signals.mjs        (after npm run build)
import { fileURLToPath } from 'node:url';
import { SignalScanner } from '../dist/core/signals.js';
import { assistantBlocks } from './assistant-text.mjs';
import { interleaved, printRows, RUNS } from './lib.mjs';

const MB = 1e6;
const SIZE = Number(process.env.BENCH_SIGNALS_MB ?? 50) * MB;

/** Every signal in the text blocks, through the scanner an attempt's collector feeds as the agent streams. */
function parseSignals(text) {
  const scanner = new SignalScanner();
  for (const block of typeof text === 'string' ? [text] : text) scanner.add(block);
  return scanner.result();
}

/** MB per CPU-second of `fn` over `bytes` of text. */
function throughput(bytes, fn) {
  return () => {
    const start = process.cpuUsage();
    const result = fn();
    const used = process.cpuUsage(start);
    if (result === undefined) throw new Error('nothing measured');
    return bytes / MB / ((used.user + used.system) / 1e6);
  };
}

export function runSignalsBench() {
  const blocks = assistantBlocks(SIZE);
  const text = blocks.join('\n');
  const bytes = Buffer.byteLength(text);
  const expected = parseSignals(blocks);
  if (expected.done.length !== 1 || expected.learn.length === 0)
    throw new Error('the bench text lost its signals');
  const runs = Math.max(3, Math.ceil(RUNS / 2));
  const floorPass = (t) => {
    let found = 0;
    for (const _ of t.matchAll(/<ralph|<promise|\[(?:DONE|FAIL)\]/gi)) found++;
    return found;
  };
  const [floorOne, scanOne, floorBlocks, scanBlocks] = interleaved(
    [
      { run: throughput(bytes, () => floorPass(text)) },
      { run: throughput(bytes, () => parseSignals(text)) },
      { run: throughput(bytes, () => blocks.map(floorPass)) },
      { run: throughput(bytes, () => parseSignals(blocks)) },
    ],
    runs,
  );
  const mb = (bytes / MB).toFixed(0);
  printRows(
    `signal scan (median of ${runs} interleaved runs; MB per CPU-second; floor: one regex pass for where a signal could start)`,
    [
      {
        label: `${mb} MB as one text`,
        value: scanOne,
        floor: floorOne,
        ratio: floorOne / scanOne,
        unit: 'MB/s',
        target: 'target >= 200 MB/s',
      },
      {
        label: `${mb} MB as ${blocks.length} text blocks`,
        value: scanBlocks,
        floor: floorBlocks,
        ratio: floorBlocks / scanBlocks,
        unit: 'MB/s',
        target: 'target >= 200 MB/s',
      },
    ],
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runSignalsBench();
