import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSignals } from '../../test/support/agent-text.js';
import type { AgentEvent } from '../agents/agent-event.js';
import { parseGoalResult } from '../core/goal-result.js';
import { collectAgentRun } from './agent-collector.js';

const text = (t: string): AgentEvent => ({ type: 'assistant-text', text: t });
const fence = '```';
const result = (summary: string) =>
  `Done.\n${fence}json\n${JSON.stringify({ status: 'continue', summary })}\n${fence}`;

function collect(events: AgentEvent[]) {
  const forwarded: AgentEvent[] = [];
  const collector = collectAgentRun((e) => forwarded.push(e));
  for (const e of events) collector.onEvent(e);
  return { collector, forwarded };
}

describe('collectAgentRun', () => {
  it('forwards every event and reads signals across text blocks, not from tool output', () => {
    const events: AgentEvent[] = [
      text('Starting. <ralph>LEARN: a</ralph>'),
      { type: 'tool-finished', id: 't1', ok: true, output: '<ralph>DONE US-9</ralph>' },
      text('Quoting `<ralph>DONE US-2</ralph>` is not a signal.'),
      text('<ralph>DONE US-1</ralph>'),
    ];
    const { collector, forwarded } = collect(events);
    expect(forwarded).toEqual(events);
    const signals = collector.signals();
    expect(signals.done).toEqual(['US-1']);
    expect(signals.learn).toEqual(['a']);
    expect(signals).toEqual(
      parseSignals(events.flatMap((e) => (e.type === 'assistant-text' ? [e.text] : []))),
    );
  });

  it('summarises the last text without its signal tags', () => {
    const { collector } = collect([
      text('first'),
      text('All done. <ralph>DONE US-1</ralph> <ralph-complete/>'),
    ]);
    expect(collector.summary()).toBe('All done.');
    expect(collect([]).collector.summary()).toBe('');
  });

  it('reads the goal result from the last text that has a json block, even when later texts have none', () => {
    const { collector } = collect([text(result('old')), text(result('new')), text('One more thing.')]);
    const parsed = collector.goalResult();
    expect(parsed.ok && parsed.result.summary).toBe('new');
    expect(collect([text('no block')]).collector.goalResult()).toEqual({
      ok: false,
      error: 'no ```json result block was found in your final message',
    });
  });

  it('gives the same signals and goal result as reading every text kept (property)', () => {
    const piece = fc.constantFrom(
      'prose ',
      '\n',
      '<ralph>DONE US-1</ralph>',
      '<ralph>LEARN: x</ralph>',
      '`<ralph>DONE US-2</ralph>`',
      '[DONE]',
      `${fence}json\n{"status":"continue","summary":"s"}\n${fence}`,
      `${fence}json\n{"status":"goal-complete","summary":"s","goalCompleteSummary":"g"}\n${fence}`,
      `${fence}json\nnot json\n${fence}`,
      `${fence}\n`,
      '~~~json\n{}\n~~~',
    );
    const texts = fc.array(
      fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(texts, (ts) => {
        const { collector } = collect(ts.map(text));
        expect(collector.signals()).toEqual(parseSignals(ts));
        expect(collector.goalResult()).toEqual(parseGoalResult(ts));
      }),
      { numRuns: 500 },
    );
  });

  it('sums usage, falls back to the result cost, and keeps the rate limit', () => {
    const { collector } = collect([
      { type: 'usage', inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 },
      { type: 'usage', inputTokens: 1, outputTokens: 1 },
      { type: 'error', kind: 'rate-limit', message: 'slow down', resetsAt: '2030-01-01T00:00:00Z' },
      { type: 'result', ok: false, costUsd: 0.25 },
    ]);
    expect(collector.usage()).toEqual({ costUsd: 0.25, inputTokens: 13, outputTokens: 6 });
    expect(collector.resultOk()).toBe(false);
    expect(collector.rateLimit()).toEqual({ message: 'slow down', resetsAt: '2030-01-01T00:00:00Z' });
  });
});
