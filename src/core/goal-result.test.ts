import { describe, expect, it } from 'vitest';
import { jsonFences, parseGoalResult } from './goal-result.js';

const block = (value: unknown, tag = 'json') => `\`\`\`${tag}\n${JSON.stringify(value, null, 2)}\n\`\`\``;

describe('parseGoalResult', () => {
  it('reads a continue result with completed and new steps', () => {
    const text = `Did the login.\n\n${block({
      status: 'continue',
      summary: 'Implemented login',
      completedStepIds: ['step-0'],
      pendingSteps: [
        { id: 'step-1', prompt: 'Add logout' },
        { id: null, prompt: 'Add refresh' },
      ],
    })}`;
    expect(parseGoalResult([text])).toEqual({
      ok: true,
      result: {
        status: 'continue',
        summary: 'Implemented login',
        completedStepIds: ['step-0'],
        pendingSteps: [
          { id: 'step-1', prompt: 'Add logout' },
          { id: null, prompt: 'Add refresh' },
        ],
      },
    });
  });

  it('defaults missing or null lists and drops null optional fields', () => {
    const parsed = parseGoalResult([
      block({ status: 'continue', summary: 'x', completedStepIds: null, goalCompleteSummary: null }),
    ]);
    expect(parsed).toEqual({
      ok: true,
      result: { status: 'continue', summary: 'x', completedStepIds: [], pendingSteps: [] },
    });
  });

  it('requires goalCompleteSummary for goal-complete and humanNeeded for needs-human', () => {
    const complete = parseGoalResult([block({ status: 'goal-complete', summary: 'done' })]);
    expect(complete.ok).toBe(false);
    if (!complete.ok) expect(complete.error).toMatch(/goalCompleteSummary: required/);
    const human = parseGoalResult([block({ status: 'needs-human', summary: 'stuck' })]);
    expect(human.ok).toBe(false);
    if (!human.ok) expect(human.error).toMatch(/humanNeeded: required/);
    const humanOk = parseGoalResult([
      block({ status: 'needs-human', summary: 's', humanNeeded: { reason: 'No key', details: 'Add it' } }),
    ]);
    expect(humanOk.ok && humanOk.result.humanNeeded).toEqual({ reason: 'No key', details: 'Add it' });
  });

  it('explains a wrong status, an empty summary and a bad step', () => {
    const parsed = parseGoalResult([
      block({ status: 'done', summary: '  ', pendingSteps: [{ id: null, prompt: '' }] }),
    ]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toContain('status:');
      expect(parsed.error).toContain('summary: must not be empty');
      expect(parsed.error).toContain('pendingSteps[0].prompt');
    }
  });

  it('reports a missing block and invalid JSON differently', () => {
    const missing = parseGoalResult(['All done, no JSON here.']);
    expect(missing).toEqual({ ok: false, error: expect.stringMatching(/^no ```json result block/) });
    const broken = parseGoalResult(['```json\n{"status": "continue",\n```']);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/not valid JSON/);
  });

  it('takes the last text with a json block, and in it the last block that has a status', () => {
    const early = block({ status: 'goal-complete', summary: 'early', goalCompleteSummary: 'no' });
    const final = `${block({ status: 'continue', summary: 'final' })}\n\nThe config I wrote:\n${block({ name: 'pkg' })}`;
    const parsed = parseGoalResult([early, 'some tool chatter', final]);
    expect(parsed.ok && parsed.result.summary).toBe('final');
  });

  it('ignores blocks tagged with another language', () => {
    const parsed = parseGoalResult([block({ status: 'continue', summary: 'x' }, 'js')]);
    expect(parsed.ok).toBe(false);
  });
});

describe('jsonFences', () => {
  it('finds json and JSON fences with ``` or ~~~, and honours longer fences', () => {
    const text = [
      '```JSON',
      '{"a":1}',
      '```',
      '~~~json',
      '{"b":2}',
      '~~~',
      '````json',
      '```',
      'x',
      '````',
    ].join('\n');
    expect(jsonFences(text)).toEqual(['{"a":1}', '{"b":2}', '```\nx']);
  });

  it('skips the inside of other fences', () => {
    expect(jsonFences('```md\n```json\n{}\n```\n')).toEqual([]);
  });
});
