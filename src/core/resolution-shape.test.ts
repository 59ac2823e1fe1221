import { describe, expect, it } from 'vitest';
import { agentText } from '../../test/support/agent-text.js';
import type { AgentRunFacts, AttemptFacts } from './attempt-facts.js';
import { acceptResolution, resolutionShape } from './resolution-shape.js';
import type { Signals } from './signals.js';

const shape = resolutionShape('US-001');
const exited: AgentRunFacts = { stopReason: 'exited', exitCode: 0, durationMs: 1, stderrTail: '' };
const facts = (text: string, over: Partial<AttemptFacts<Signals>> = {}): AttemptFacts<Signals> => ({
  headBefore: 'a',
  agent: exited,
  said: shape.read(agentText([text])),
  commits: [{ sha: 'b', subject: 'feat: US-001 - Add login' }],
  dirtyPaths: [],
  gates: [{ command: 'npm test', exitCode: 0, durationMs: 1, outputTail: '' }],
  interrupted: false,
  ...over,
});
const clean = { markers: [], dropped: [], landedMeanwhile: ['US-006'] };

describe('the resolution shape', () => {
  it('resolved when judged as a story attempt passes: DONE for the story, a commit, the gates, a clean tree', () => {
    expect(shape.judge(facts('Merged.\n<ralph>DONE US-001</ralph>'))).toEqual({ kind: 'resolved' });
  });

  it('refused, with the reason, when it would not pass; an interrupt or a rate limit is neither', () => {
    expect(shape.judge(facts('<ralph>FAIL US-001: both cannot hold</ralph>'))).toEqual({
      kind: 'refused',
      reason: 'the resolution did not pass: the agent reported FAIL: both cannot hold',
    });
    expect(shape.judge(facts('Merged.\n<ralph>DONE US-001</ralph>', { commits: [] }))).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('made no new commit'),
    });
    expect(
      shape.judge(
        facts('', { agent: { ...exited, stopReason: 'aborted', exitCode: null }, interrupted: true }),
      ),
    ).toEqual({ kind: 'aborted' });
    expect(
      shape.judge(facts('', { agent: { ...exited, rateLimit: { message: 'limit', resetsAt: 'soon' } } })),
    ).toMatchObject({ kind: 'rate-limited' });
  });

  it('a resolution that passed is refused for a conflict marker left, or for a line the landed story added and it removed', () => {
    const resolved = { kind: 'resolved' } as const;
    expect(acceptResolution(resolved, clean)).toEqual(resolved);
    expect(acceptResolution(resolved, { ...clean, markers: [{ file: 'REGISTRY.md', line: 3 }] })).toEqual({
      kind: 'refused',
      reason: 'the resolution left conflict markers (REGISTRY.md:3)',
    });
    expect(
      acceptResolution(resolved, { ...clean, dropped: [{ file: 'REGISTRY.md', line: '- US-006 billing' }] }),
    ).toEqual({
      kind: 'refused',
      reason: 'the resolution removed lines that US-006 added (REGISTRY.md: "- US-006 billing")',
    });
    // What the kernel refused stays refused.
    expect(acceptResolution({ kind: 'aborted' }, { ...clean, markers: [{ file: 'x', line: 1 }] })).toEqual({
      kind: 'aborted',
    });
  });
});
