import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentSetup } from '../agents/adapter.js';
import { claudeAdapter } from '../agents/claude/claude-adapter.js';
import { codexAdapter } from '../agents/codex/codex-adapter.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import { AgentRotation } from './agent-rotation.js';

const setup = (adapter: AgentAdapter): AgentSetup => ({
  adapter,
  binaryPath: adapter.name,
  extraArgs: [],
  env: {},
});
const UNREACHABLE: OutsideFailure = { cause: 'unreachable', message: 'connect ECONNREFUSED' };

/** A clock that moves only when the rotation sleeps (the sleeps themselves are 1 ms). */
function rotation(options: { fallbacks?: AgentAdapter[]; probe?: boolean[]; waitMs?: number }) {
  let now = Date.parse('2026-01-18T10:00:00Z');
  const heard: string[] = [];
  const probes = [...(options.probe ?? [])];
  const agents = new AgentRotation({
    primary: setup(claudeAdapter),
    fallbacks: (options.fallbacks ?? []).map(setup),
    backoffMs: 1,
    now: () => new Date(now),
    outage: { waitMs: options.waitMs ?? 60_000, backoffMs: 10_000, capMs: 25_000, tickMs: 1 },
    probe: async (agent) => {
      heard.push(`probe ${agent.adapter.name}`);
      return probes.shift() ?? true;
    },
  });
  const listener = {
    switched: (from: string, to: string) => heard.push(`switch ${from}->${to}`),
    waiting: (wait: { waitMs: number }) => {
      heard.push(`wait ${wait.waitMs}`);
      now += wait.waitMs;
    },
  };
  return { agents, heard, listener };
}

describe('AgentRotation.outage', () => {
  it('hands an outage to the fallback agent at once, then waits with the primary', async () => {
    const { agents, heard, listener } = rotation({ fallbacks: [codexAdapter] });
    expect(await agents.outage(UNREACHABLE, listener)).toBe('retry');
    expect(agents.current().adapter.name).toBe('codex');
    expect(await agents.outage(UNREACHABLE, listener)).toBe('retry');
    expect(agents.current().adapter.name).toBe('claude');
    expect(heard).toEqual(['switch claude->codex', 'wait 10000', 'probe claude']);
  });

  it('backs off exponentially up to the cap, probing, until the API answers', async () => {
    const { agents, heard, listener } = rotation({ probe: [false, false, true] });
    expect(await agents.outage(UNREACHABLE, listener)).toBe('retry');
    expect(heard).toEqual([
      'wait 10000',
      'probe claude',
      'wait 20000',
      'probe claude',
      'wait 25000',
      'probe claude',
    ]);
  });

  it('does not probe an overloaded API: the next attempt is the probe', async () => {
    const { agents, heard, listener } = rotation({});
    expect(await agents.outage({ cause: 'overloaded', message: '529' }, listener)).toBe('retry');
    expect(heard).toEqual(['wait 10000']);
  });

  it('gives up once the outage has lasted --outage-wait, the last wait cut to what is left', async () => {
    const { agents, heard, listener } = rotation({ probe: [false, false, false, false], waitMs: 45_000 });
    expect(await agents.outage(UNREACHABLE, listener)).toBe('gave-up');
    expect(heard).toEqual([
      'wait 10000',
      'probe claude',
      'wait 20000',
      'probe claude',
      'wait 15000',
      'probe claude',
    ]);
  });

  it('starts the outage clock and the backoff afresh after an attempt that got through', async () => {
    const { agents, heard, listener } = rotation({ waitMs: 15_000 });
    await agents.outage({ cause: 'server-error', message: '500' }, listener);
    agents.succeeded();
    expect(await agents.outage({ cause: 'server-error', message: '500' }, listener)).toBe('retry');
    expect(heard).toEqual(['wait 10000', 'wait 10000']);
  });
});
