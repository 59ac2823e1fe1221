import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentSetup } from '../agents/adapter.js';
import { claudeAdapter } from '../agents/claude/claude-adapter.js';
import { codexAdapter } from '../agents/codex/codex-adapter.js';
import { geminiAdapter } from '../agents/gemini/gemini-adapter.js';
import { AgentRotation } from './agent-rotation.js';

const setup = (adapter: AgentAdapter): AgentSetup => ({
  adapter,
  binaryPath: adapter.name,
  extraArgs: [],
  env: {},
});
const NOW = new Date('2026-01-18T10:00:00Z');

function rotation(fallbacks: AgentAdapter[]) {
  const heard: string[] = [];
  const agents = new AgentRotation({
    primary: setup(claudeAdapter),
    fallbacks: fallbacks.map(setup),
    backoffMs: 1,
    now: () => NOW,
  });
  const listener = {
    switched: (from: string, to: string, reason: string) => heard.push(`switch ${from}->${to}: ${reason}`),
    waiting: (ms: number) => heard.push(`wait ${ms}`),
  };
  return { agents, heard, listener };
}

describe('AgentRotation', () => {
  it('hands over to each fallback in turn, then waits and starts again from the primary', async () => {
    const { agents, heard, listener } = rotation([codexAdapter, geminiAdapter]);
    expect(agents.current().adapter.name).toBe('claude');
    await agents.rateLimited({ message: 'limit' }, listener);
    expect(agents.current().adapter.name).toBe('codex');
    await agents.rateLimited({ message: 'limit 2' }, listener);
    expect(agents.current().adapter.name).toBe('gemini');
    await agents.rateLimited({ message: 'limit 3' }, listener);
    expect(agents.current().adapter.name).toBe('claude');
    expect(heard).toEqual(['switch claude->codex: limit', 'switch codex->gemini: limit 2', 'wait 1']);
  });

  it('backs off exponentially while every agent stays limited, and afresh after a success', async () => {
    const { agents, heard, listener } = rotation([]);
    await agents.rateLimited({ message: 'a' }, listener);
    await agents.rateLimited({ message: 'b' }, listener);
    await agents.rateLimited({ message: 'c' }, listener);
    agents.succeeded();
    await agents.rateLimited({ message: 'd' }, listener);
    expect(heard).toEqual(['wait 1', 'wait 2', 'wait 4', 'wait 1']);
  });

  it('waits until the reset time the agent gave, and wakes early when stopped', async () => {
    const { agents, heard, listener } = rotation([]);
    const stop = new AbortController();
    stop.abort();
    await agents.rateLimited({ message: 'a', resetsAt: '2026-01-18T10:01:00Z' }, listener, stop.signal);
    expect(heard).toEqual([`wait ${60_000 + 5_000}`]);
  });
});
