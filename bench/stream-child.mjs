// One measured stream, in its own process so that its peak RSS is its own.
//   node bench/stream-child.mjs pipeline <bytes>   runAgent: parse, raw log, collect and scan signals
//   node bench/stream-child.mjs floor <bytes>      the floor: the same agent's bytes copied to a file
// Prints one JSON line: { bytes, seconds, cpuSeconds, maxRssMb, done }; CPU is this process's only, not the agent's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { claudeAdapter } from '../dist/agents/claude/claude-adapter.js';
import { runAgent } from '../dist/agents/run-agent.js';
import { collectAgentRun } from '../dist/attempt/agent-collector.js';

const [mode, size] = process.argv.slice(2);
const AGENT = fileURLToPath(new URL('./stream-agent.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ralph-bench-stream-'));
const log = join(dir, 'raw.jsonl');

async function pipeline() {
  const collector = collectAgentRun(() => undefined);
  const run = await runAgent({
    binaryPath: process.execPath,
    adapter: claudeAdapter,
    invocation: { args: [AGENT, size], env: {}, stdin: 'ignore' },
    cwd: dir,
    env: process.env,
    timeoutMs: 0,
    idleTimeoutMs: 0,
    rawLogPath: log,
    onEvent: collector.onEvent,
  });
  if (run.exitCode !== 0) throw new Error(`the agent failed: ${run.stderr}`);
  return collector.signals().done.join(',');
}

async function floor() {
  const child = spawn(process.execPath, [AGENT, size], { stdio: ['ignore', 'pipe', 'inherit'] });
  const file = createWriteStream(log);
  child.stdout.pipe(file);
  await once(file, 'close');
  return '';
}

try {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const done = mode === 'floor' ? await floor() : await pipeline();
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const bytes = statSync(log).size;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ bytes, seconds, cpuSeconds, maxRssMb, done }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
