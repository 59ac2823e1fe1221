import { describe, expect, it } from 'vitest';
import { agentText } from '../../test/support/agent-text.js';
import type { AgentRunFacts, AttemptFacts, GateResult } from './attempt-facts.js';
import type { Signals } from './signals.js';
import { storyShape } from './story-shape.js';

const shape = storyShape('US-001');
const exited: AgentRunFacts = { stopReason: 'exited', exitCode: 0, durationMs: 1, stderrTail: '' };
const gate = (exitCode: number): GateResult => ({
  command: 'npm test',
  exitCode,
  durationMs: 5,
  outputTail: '',
});

const facts = (over: Partial<AttemptFacts<Signals>> = {}): AttemptFacts<Signals> => ({
  headBefore: 'a',
  agent: exited,
  said: shape.read(agentText(['Added it.\n<ralph>DONE US-001</ralph>'])),
  commits: [{ sha: 'b', subject: 'feat: US-001 - Add it' }],
  dirtyPaths: [],
  gates: [gate(0)],
  interrupted: false,
  ...over,
});

describe('the story shape', () => {
  it('passes a verified attempt, interrupted or not', () => {
    expect(shape.judge(facts())).toEqual({ kind: 'pass' });
    expect(shape.judge(facts({ interrupted: true }))).toEqual({ kind: 'pass' });
  });

  it('never blames the story for what an interrupt did: a gate killed by it is not a failed check', () => {
    expect(shape.judge(facts({ gates: [gate(137)] }))).toMatchObject({ kind: 'check-failed' });
    expect(shape.judge(facts({ gates: [gate(137)], interrupted: true }))).toMatchObject({ kind: 'aborted' });
    expect(shape.judge(facts({ dirtyPaths: ['x'], interrupted: true }))).toMatchObject({ kind: 'aborted' });
  });
});
