import { describe, expect, it } from 'vitest';
import { agentText } from '../../test/support/agent-text.js';
import type { AgentRunFacts, AttemptFacts } from './attempt-facts.js';
import { goalShape } from './goal-shape.js';

const block = (value: unknown) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;
const exited: AgentRunFacts = { stopReason: 'exited', exitCode: 0, durationMs: 1, stderrTail: '' };

function facts(text: string, over: Partial<AttemptFacts<unknown>> = {}) {
  const said = goalShape.read(agentText([text]));
  return {
    headBefore: 'a',
    agent: exited,
    said,
    commits: [],
    dirtyPaths: [],
    gates: 'not-run',
    interrupted: false,
    ...over,
  } as AttemptFacts<typeof said>;
}

const cont = block({ status: 'continue', summary: 'did a step' });
const complete = block({ status: 'goal-complete', summary: 's', goalCompleteSummary: 'all done' });
const commit = [{ sha: 'b', subject: 'feat: x' }];

describe('the goal shape', () => {
  it('counts nothing but a verified result once the run was interrupted: a gate killed by it is not a failure', () => {
    const killed = [{ command: 'npm test', exitCode: 137, durationMs: 5, outputTail: '' }];
    expect(goalShape.judge(facts(complete, { gates: killed }))).toMatchObject({ failure: 'checks-failed' });
    expect(goalShape.judge(facts(complete, { gates: killed, interrupted: true }))).toEqual({
      kind: 'aborted',
    });
    expect(goalShape.judge(facts('no block here', { interrupted: true }))).toEqual({ kind: 'aborted' });
    const passed = [{ command: 'npm test', exitCode: 0, durationMs: 5, outputTail: '' }];
    expect(goalShape.judge(facts(complete, { gates: passed, interrupted: true }))).toMatchObject({
      kind: 'result',
    });
  });

  it('accepts a valid result with a clean tree, and wants gates only after a commit or a completion claim', () => {
    expect(goalShape.judge(facts(cont))).toMatchObject({ kind: 'result', result: { status: 'continue' } });
    expect(goalShape.wantsGates(facts(cont))).toBe(false);
    expect(goalShape.wantsGates(facts(cont, { commits: commit }))).toBe(true);
    expect(goalShape.wantsGates(facts(complete))).toBe(true);
  });

  it('fails on a missing or invalid result, a dirty tree or a failing gate, naming why', () => {
    expect(goalShape.judge(facts('no block here'))).toMatchObject({ kind: 'failed', failure: 'no-result' });
    expect(goalShape.judge(facts(block({ status: 'maybe' })))).toMatchObject({ failure: 'invalid-result' });
    expect(goalShape.judge(facts(cont, { dirtyPaths: ['a.txt'] }))).toMatchObject({
      failure: 'dirty-tree',
      reason: expect.stringContaining('a.txt'),
    });
    const gates = [{ command: 'npm test', exitCode: 1, durationMs: 5, outputTail: 'boom' }];
    expect(goalShape.judge(facts(cont, { commits: commit, gates }))).toEqual({
      kind: 'failed',
      failure: 'checks-failed',
      reason: 'the check `npm test` failed (exit 1)',
      outputTail: 'boom',
    });
    expect(goalShape.wantsGates(facts(cont, { commits: commit, dirtyPaths: ['x'] }))).toBe(false);
  });

  it('puts an interrupt before everything, and a rate limit before a missing result only', () => {
    const limited = { ...exited, rateLimit: { message: '429' } };
    expect(goalShape.judge(facts(cont, { agent: { ...limited, stopReason: 'aborted' } }))).toEqual({
      kind: 'aborted',
    });
    expect(goalShape.judge(facts('nothing', { agent: limited }))).toEqual({
      kind: 'rate-limited',
      message: '429',
    });
    expect(goalShape.judge(facts(cont, { agent: limited }))).toMatchObject({ kind: 'result' });
    expect(
      goalShape.judge(facts(cont, { agent: { ...exited, stopReason: 'idle', exitCode: null } })),
    ).toMatchObject({
      failure: 'agent-stopped',
      reason: 'the agent was stopped for being silent too long',
    });
  });
});
