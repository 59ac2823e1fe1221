// Benchmarks: start-up, the agent stream, signal scanning, and the parts
// that scale with PRD size. Prints figures; asserts nothing. Compare ratios
// within one run: the machine may be shared.
//   npm run bench                       all of them (builds first)
//   node bench/run.mjs startup signals  some: files, startup, signals, stream, iteration, tui, serve
import { performance } from 'node:perf_hooks';
import { createClaudeParser } from '../dist/agents/claude/claude-parser.js';
import { selectNextStory } from '../dist/core/select.js';
import { parsePrdJson } from '../dist/sources/parse-prd-json.js';
import { parsePrdMd } from '../dist/sources/parse-prd-md.js';
import { withPrdJsonStatus } from '../dist/sources/write-prd-json.js';
import { runIterationBench } from './iteration.mjs';
import { runServeBench } from './serve.mjs';
import { runSignalsBench } from './signals.mjs';
import { runStartupBench } from './startup.mjs';
import { runStreamBench } from './stream.mjs';

function time(label, iterations, fn) {
  fn(); // warm-up
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const perOp = (performance.now() - start) / iterations;
  console.log(`${label.padEnd(48)} ${perOp.toFixed(3).padStart(10)} ms/op`);
  return perOp;
}

function prd(n) {
  return {
    project: 'Bench',
    userStories: Array.from({ length: n }, (_, i) => ({
      id: `US-${String(i + 1).padStart(4, '0')}`,
      title: `Story ${i + 1}`,
      description: 'As a user I want something.',
      acceptanceCriteria: ['It works', 'Typecheck passes'],
      priority: (i % 7) + 1,
      passes: i < n / 2,
      ...(i > 0 ? { dependsOn: [`US-${String(i).padStart(4, '0')}`] } : {}),
    })),
  };
}

function prdMd(n) {
  const out = ['# PRD: Bench', '', '## User Stories', ''];
  for (let i = 1; i <= n; i++) {
    out.push(`### US-${i}: Story ${i}`, '', `**Status:** ${i % 2 ? 'todo' : 'done'}`, `**Priority:** ${i}`);
    out.push(
      `**Description:** As a user I want thing ${i}.`,
      ...(i > 1 ? [`**Depends on:** US-${i - 1}`] : []),
    );
    out.push(
      '',
      '**Acceptance Criteria:**',
      '- [ ] It works',
      '  and keeps working',
      '- [x] Typecheck passes',
      '',
    );
  }
  return out.join('\n');
}

function runFilesBench() {
  console.log('task files');
  const small = JSON.stringify(prd(50), null, 2);
  const large = JSON.stringify(prd(1000), null, 2);
  const tSmall = time('parse prd.json, 50 stories', 200, () => parsePrdJson(small, 'prd.json'));
  const tLarge = time('parse prd.json, 1000 stories', 20, () => parsePrdJson(large, 'prd.json'));
  console.log(`  ratio 1000/50 stories: ${(tLarge / tSmall).toFixed(1)}x (linear would be 20x)`);
  time('write back one status, 1000 stories', 20, () =>
    withPrdJsonStatus(large, 'prd.json', 'US-0900', 'done'),
  );

  console.log('prd.md');
  const mdTimes = [2500, 5000, 10000].map((n) => {
    const text = prdMd(n);
    return time(`parse prd.md, ${n} stories (${(text.length / 1e6).toFixed(1)} MB)`, 3, () =>
      parsePrdMd(text, 'prd.md'),
    );
  });
  console.log(`  ratio 10000/2500 stories: ${(mdTimes[2] / mdTimes[0]).toFixed(1)}x (linear would be 4x)`);
  for (const [label, sep] of [
    ['a space', ' '],
    ['a control character', '\u0001'],
  ]) {
    const heading = `US-${'1'.repeat(64_000)}${sep}${'2'.repeat(64_000)}: x`;
    const text = `# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n### ${heading}\n`;
    time(`parse a 128 KB heading with ${label} inside the id`, 3, () => parsePrdMd(text, 'prd.md'));
  }

  console.log('selection');
  const parsed = parsePrdJson(large, 'prd.json');
  if (!parsed.ok) throw new Error('bench PRD did not parse');
  time('select next story, 1000 stories', 200, () => selectNextStory(parsed.prd.stories));

  console.log('agent stream');
  const lines = [];
  for (let i = 0; i < 5000; i++) {
    lines.push(
      JSON.stringify({
        type: 'assistant',
        message: { content: [{ type: 'text', text: `step ${i} <ralph>LEARN: x${i}</ralph>` }] },
      }),
    );
  }
  time('parse 5000 Claude stream lines', 5, () => {
    const parser = createClaudeParser();
    for (const line of lines) parser.parseLine(line);
  });
}

async function runTuiBench() {
  console.log('terminal UI: 20,000 events/s for 10 s');
  const { benchTui } = await import('./tui.mjs');
  await benchTui();
}

const ALL = {
  files: runFilesBench,
  startup: runStartupBench,
  signals: runSignalsBench,
  stream: runStreamBench,
  iteration: runIterationBench,
  tui: runTuiBench,
  serve: runServeBench,
};
const chosen = process.argv.slice(2);
for (const name of chosen.length > 0 ? chosen : Object.keys(ALL)) {
  const run = ALL[name];
  if (run === undefined) throw new Error(`no benchmark called ${name} (${Object.keys(ALL).join(', ')})`);
  await run();
  console.log('');
}
