/** A run context over a real repository, for tests of the parallel run's roles without an agent. */
import path from 'node:path';
import { claudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import type { RunEvent } from '../../src/events/run-event.js';
import type { RunContext } from '../../src/run/run-context.js';
import { openTaskSource } from '../../src/sources/load-task-source.js';
import { defaultConfig } from '../../src/state/config-schema.js';
import { runFiles } from '../../src/state/layout.js';

/** The PRD `demo` with its task file at `.ralph/prds/demo/prd.json` in `dir`; events go to `events`. */
export function testRunContext(
  dir: string,
  options: { gates?: string[]; events?: RunEvent[] } = {},
): RunContext {
  const files = runFiles(path.join(dir, '.ralph', 'runs', 'demo'));
  return {
    cwd: dir,
    name: 'demo',
    source: openTaskSource(path.join(dir, '.ralph/prds/demo/prd.json')),
    progressPath: path.join(dir, '.ralph/prds/demo/progress.md'),
    runDir: files.dir,
    files,
    config: { ...defaultConfig(), checks: options.gates ?? [] },
    agent: { adapter: claudeAdapter, binaryPath: 'claude', extraArgs: [], env: {} },
    limits: { timeoutMs: 30_000, idleTimeoutMs: 30_000, maxRetries: 3, rateLimitBackoffMs: 1000 },
    promptTemplate: '',
    stopSignal: new AbortController().signal,
    killSignal: new AbortController().signal,
    emit: (e) => options.events?.push(e),
    now: () => new Date('2026-01-01T00:00:00Z'),
  };
}
