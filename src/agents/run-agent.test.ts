import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, waitForDeath } from '../../test/support/process-alive.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { AgentEvent } from './agent-event.js';
import { runAgent } from './run-agent.js';
import type { AdapterLike, RunAgentOptions } from './run-agent-types.js';

const FAKE_AGENT = fileURLToPath(new URL('../../test/support/fake-agents/fake-agent.mjs', import.meta.url));

/** Reports each JSON line as `unknown` so tests see exactly what the agent printed. */
const jsonAdapter: AdapterLike = {
  createParser: () => ({
    parseLine(line: string): AgentEvent[] {
      try {
        return [{ type: 'unknown', raw: JSON.parse(line) }];
      } catch {
        return [{ type: 'garbage', line }];
      }
    },
  }),
};

const rawOf = (events: AgentEvent[]): unknown[] =>
  events.flatMap((e) => (e.type === 'unknown' ? [e.raw] : []));

const pidFrom = (events: AgentEvent[], type: string, key = 'pid'): number => {
  for (const raw of rawOf(events)) {
    if (typeof raw === 'object' && raw !== null && 'type' in raw && raw.type === type && key in raw) {
      const value: unknown = Reflect.get(raw, key);
      if (typeof value === 'number') return value;
    }
  }
  throw new Error(`no ${type} line with a ${key}`);
};

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('run-agent');
});
afterEach(async () => {
  await removeTempDir(dir);
});

function options(mode: string, overrides: Partial<RunAgentOptions> = {}) {
  const events: AgentEvent[] = [];
  const opts: RunAgentOptions = {
    binaryPath: process.execPath,
    adapter: jsonAdapter,
    invocation: { args: [FAKE_AGENT, mode], env: {}, stdin: 'ignore' },
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs: 30_000,
    idleTimeoutMs: 30_000,
    rawLogPath: join(dir, 'runs', 'main', 'iterations', '1.jsonl'),
    onEvent: (event) => events.push(event),
    killGraceMs: 500,
    ...overrides,
  };
  return { opts, events };
}

describe('runAgent', () => {
  it('parses every stdout line and keeps a verbatim raw log in a new directory', async () => {
    const { opts, events } = options('ok');
    const result = await runAgent(opts);
    expect(result).toMatchObject({ exitCode: 0, signal: null, stopReason: 'exited' });
    const pid = pidFrom(events, 'hello');
    expect(rawOf(events)).toEqual([{ type: 'hello', pid }, { type: 'bye' }]);
    const log = await readFile(opts.rawLogPath, 'utf8');
    expect(log).toBe(`{"type":"hello","pid":${pid}}\n{"type":"bye"}\n`);
  });

  it('appends to an existing raw log', async () => {
    const first = options('ok');
    await runAgent(first.opts);
    await runAgent(options('ok').opts);
    const log = await readFile(first.opts.rawLogPath, 'utf8');
    expect(log.split('\n').filter((l) => l.includes('"bye"'))).toHaveLength(2);
  });

  it('passes arguments verbatim, without a shell, and lays invocation env over env', async () => {
    const prompt = `-- $(touch pwned) "double" 'single' ; | & \`tick\` *\nsecond line`;
    const { opts, events } = options('args', {
      invocation: {
        args: [FAKE_AGENT, 'args', prompt],
        env: { FAKE_MARKER: 'from-invocation' },
        stdin: 'ignore',
      },
      env: { PATH: process.env.PATH ?? '', FAKE_MARKER: 'from-env' },
    });
    await runAgent(opts);
    expect(rawOf(events)).toEqual([{ type: 'args', args: [prompt], marker: 'from-invocation' }]);
    await expect(readFile(join(dir, 'pwned'))).rejects.toThrow();
  });

  it('writes stdin text and closes it', async () => {
    const text = 'a prompt on stdin\nwith two lines';
    const { opts, events } = options('stdin', {
      invocation: { args: [FAKE_AGENT, 'stdin'], env: {}, stdin: { text } },
    });
    const result = await runAgent(opts);
    expect(result.stopReason).toBe('exited');
    expect(rawOf(events)).toEqual([{ type: 'stdin', text }]);
  });

  it('kills a silent agent after the idle timeout', async () => {
    const { opts, events } = options('hang', { idleTimeoutMs: 300 });
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'idle', exitCode: null, signal: 'SIGTERM' });
    expect(isProcessAlive(pidFrom(events, 'started'))).toBe(false);
  });

  it('stops a busy agent at the wall-clock timeout, not the idle one', async () => {
    const { opts, events } = options('chatty', { timeoutMs: 400, idleTimeoutMs: 20_000 });
    const result = await runAgent(opts);
    expect(result.stopReason).toBe('timeout');
    expect(result.signal).toBe('SIGTERM');
    expect(events.length).toBeGreaterThan(0);
  });

  it('sends SIGKILL when SIGTERM is ignored', async () => {
    const { opts, events } = options('ignore-sigterm', { idleTimeoutMs: 300, killGraceMs: 300 });
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'idle', signal: 'SIGKILL' });
    expect(rawOf(events)).toContainEqual({ type: 'sigterm-ignored' });
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    const { opts, events } = options('hang', {
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        controller.abort();
      },
    });
    const result = await runAgent(opts);
    expect(result.stopReason).toBe('aborted');
    expect(isProcessAlive(pidFrom(events, 'started'))).toBe(false);
  });

  it('does not start when already aborted', async () => {
    const { opts, events } = options('ok', { signal: AbortSignal.abort() });
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'aborted', exitCode: null });
    expect(events).toEqual([]);
    expect(await readFile(opts.rawLogPath, 'utf8')).toBe('');
  });

  it('reports non-JSON and over-long lines as garbage and keeps going', async () => {
    const huge = 200_000;
    const { opts, events } = options('garbage', {
      invocation: { args: [FAKE_AGENT, 'garbage', String(huge)], env: {}, stdin: 'ignore' },
      maxLineBytes: 64 * 1024,
    });
    const result = await runAgent(opts);
    expect(result.stopReason).toBe('exited');
    expect(events.map((e) => e.type)).toEqual(['garbage', 'unknown', 'garbage', 'unknown', 'unknown']);
    expect(events[0]).toEqual({ type: 'garbage', line: 'this is not json' });
    const cut = events[2];
    if (cut?.type !== 'garbage') throw new Error('expected garbage');
    expect(cut.line.length).toBeLessThan(10_000);
    expect(cut.line).toContain(`line of ${huge} bytes cut`);
    expect(rawOf(events)).toEqual([
      { type: 'after-garbage' },
      { type: 'after-huge' },
      { type: 'no-newline-at-end' },
    ]);
    const log = await readFile(opts.rawLogPath, 'utf8');
    expect(log).toBe(
      `this is not json\n{"type":"after-garbage"}\n${'x'.repeat(huge)}\n{"type":"after-huge"}\n{"type":"no-newline-at-end"}`,
    );
  });

  it('returns the exit code and stderr of a crashing agent', async () => {
    const { opts } = options('crash');
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'exited', exitCode: 3, signal: null });
    expect(result.stderr).toContain('fatal: something broke');
  });

  it('keeps only the end of a flood of stderr', async () => {
    const { opts } = options('stderr-flood', { stderrMaxChars: 4096 });
    const result = await runAgent(opts);
    expect(result.stderr.length).toBeLessThan(4096 + 100);
    expect(result.stderr).toMatch(/earlier chars dropped/);
    expect(result.stderr.endsWith('the last words\n')).toBe(true);
  });

  it('reports a missing binary as a spawn error without throwing', async () => {
    const { opts } = options('ok', { binaryPath: join(dir, 'no-such-agent') });
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'spawn-error', exitCode: null, signal: null });
    expect(result.stderr).toContain('ENOENT');
  });

  it('kills the whole process group, grandchildren included, on idle timeout', async () => {
    const { opts, events } = options('grandchild', { idleTimeoutMs: 300 });
    const result = await runAgent(opts);
    expect(result.stopReason).toBe('idle');
    const grandchild = pidFrom(events, 'grandchild');
    expect(await waitForDeath(grandchild)).toBe(true);
  });

  it('returns when the agent exits while a grandchild still holds stdout, and ends the grandchild', async () => {
    const { opts, events } = options('orphan');
    const result = await runAgent(opts);
    expect(result).toMatchObject({ stopReason: 'exited', exitCode: 0 });
    expect(await waitForDeath(pidFrom(events, 'grandchild'))).toBe(true);
  });

  it('stops the agent and rejects when onEvent throws', async () => {
    let pid = 0;
    const { opts } = options('hang', {
      onEvent: (event) => {
        if (event.type === 'unknown') pid = pidFrom([event], 'started');
        throw new Error('consumer bug');
      },
    });
    await expect(runAgent(opts)).rejects.toThrow('consumer bug');
    expect(pid).toBeGreaterThan(0);
    expect(isProcessAlive(pid)).toBe(false);
  });
});
