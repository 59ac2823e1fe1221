// `ralph serve`'s costs: following a run's events.jsonl to its end (MB/s,
// against reading the same bytes and parsing every line), one look at an idle
// project of 20 PRDs, and what the page weighs. Figures only.
//   npm run build && node bench/run.mjs serve
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { EventLogFollower } from '../dist/web/event-log-follower.js';
import { ProjectWatch } from '../dist/web/project-watch.js';
import { buildPageAssets } from '../scripts/page-build.mjs';
import { median, RUNS } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;

/** A night's events.jsonl: mostly the agent's text and tool calls, an iteration now and then. */
function eventLog(bytes) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const event =
      i % 200 === 0
        ? {
            type: 'iteration-started',
            iteration: i / 200 + 1,
            maxIterations: 999,
            headBefore: 'abc1234',
            storyId: 'US-001',
            title: 'A story',
            attempt: 1,
            maxAttempts: 3,
          }
        : i % 2 === 0
          ? {
              type: 'agent-event',
              iteration: 1,
              storyId: 'US-001',
              event: { type: 'assistant-text', text: `Looking at the code, step ${i}. `.repeat(6) },
            }
          : {
              type: 'agent-event',
              iteration: 1,
              storyId: 'US-001',
              event: { type: 'tool-started', name: 'Bash', summary: `npm test -- step ${i}` },
            };
    const line = `${JSON.stringify({ at, run: 'demo', ...event })}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join('');
}

async function followerBench(dir) {
  const file = path.join(dir, 'events.jsonl');
  const text = eventLog(32 * MB);
  await writeFile(file, text);
  const mb = Buffer.byteLength(text) / MB;
  const follow = async () => {
    const start = performance.now();
    const follower = new EventLogFollower(file);
    let lines = 0;
    for (;;) {
      const update = await follower.look();
      if (update.lines.length === 0) break;
      lines += update.lines.length;
    }
    return { ms: performance.now() - start, lines };
  };
  const floor = async () => {
    const start = performance.now();
    (await readFile(file, 'utf8')).split('\n').map((l) => (l === '' ? null : JSON.parse(l)));
    return performance.now() - start;
  };
  const samples = { follow: [], floor: [] };
  for (let round = 0; round <= Math.min(RUNS, 5); round++) {
    const f = await follow();
    const g = await floor();
    if (round > 0) {
      samples.follow.push(f.ms);
      samples.floor.push(g);
    }
  }
  const [tFollow, tFloor] = [median(samples.follow), median(samples.floor)];
  console.log(
    `follow a ${mb.toFixed(0)} MB events.jsonl to its end (the log from its last MB)`.padEnd(64),
    `${(mb / (tFollow / 1000)).toFixed(1).padStart(8)} MB/s`,
  );
  console.log(
    `  floor: read + split + JSON.parse the same bytes`.padEnd(64),
    `${(mb / (tFloor / 1000)).toFixed(1).padStart(8)} MB/s`,
  );
  console.log(`  ratio ${(tFollow / tFloor).toFixed(1)}x the floor's time`);
}

async function projectBench(dir) {
  for (let p = 1; p <= 20; p++) {
    const name = `prd-${String(p).padStart(2, '0')}`;
    const stories = Array.from({ length: 20 }, (_, i) => ({
      id: `US-${String(i + 1).padStart(3, '0')}`,
      title: `Story ${i + 1}`,
      acceptanceCriteria: ['works'],
      priority: i + 1,
      passes: i < 10,
    }));
    await mkdir(path.join(dir, '.ralph', 'prds', name), { recursive: true });
    await writeFile(
      path.join(dir, '.ralph', 'prds', name, 'prd.json'),
      JSON.stringify({ project: name, userStories: stories }, null, 2),
    );
    await mkdir(path.join(dir, '.ralph', 'runs', name), { recursive: true });
    await writeFile(path.join(dir, '.ralph', 'runs', name, 'events.jsonl'), eventLog(64 * 1024));
  }
  let views = 0;
  const watch = new ProjectWatch({
    root: dir,
    intervalMs: 60_000,
    onView: () => views++,
    onLog: () => undefined,
  });
  const start = performance.now();
  await watch.look();
  const first = performance.now() - start;
  const looks = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await watch.look();
    looks.push(performance.now() - t);
  }
  watch.close();
  console.log(
    'first look at a project of 20 PRDs (20 stories, 64 KB of events each)'.padEnd(64),
    `${first.toFixed(1).padStart(8)} ms`,
  );
  console.log(
    'a later look with nothing changed (median)'.padEnd(64),
    `${median(looks).toFixed(1).padStart(8)} ms`,
  );
  console.log(`  views sent: ${views} (one for the first look, none for the idle ones)`);
}

async function pageBench() {
  const assets = await buildPageAssets(root);
  for (const [label, text] of [
    ['page.js', assets.js],
    ['page.css', assets.css],
    ['index.html', assets.html],
  ]) {
    const bytes = Buffer.byteLength(text);
    console.log(
      `${label}`.padEnd(64),
      `${(bytes / 1024).toFixed(1).padStart(8)} KB (${(gzipSync(text).length / 1024).toFixed(1)} KB gzipped)`,
    );
  }
}

export async function runServeBench() {
  const dir = await mkdtemp(path.join(tmpdir(), 'ralph-bench-serve-'));
  try {
    console.log('ralph serve');
    await followerBench(dir);
    await projectBench(path.join(dir, 'project'));
    await pageBench();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
