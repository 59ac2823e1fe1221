import { describe, expect, it } from 'vitest';
import { formatVerdictMessage, parseVerdictMessage, type StoryVerdict } from './story-verdict.js';

const verdict: StoryVerdict = {
  version: 1,
  prd: 'demo',
  storyId: 'US-001',
  attempt: 2,
  base: 'a'.repeat(40),
  head: 'b'.repeat(40),
  costUsd: 0.12,
  inputTokens: 1200,
  outputTokens: 300,
  durationMs: 4500,
  verifiedAt: '2026-01-02T03:04:05.000Z',
  summary: 'Added the greeting.\nWith a test.',
  learnings: ['use pnpm', 'tests live in test/'],
};

describe('story verdicts', () => {
  it('round-trips through a commit message whose subject names the story', () => {
    const message = formatVerdictMessage(verdict);
    expect(message.split('\n')[0]).toBe('ralph: US-001 verified');
    expect(parseVerdictMessage(message)).toEqual(verdict);
  });

  it('keeps an id with line breaks out of the subject but exact in the record', () => {
    const odd = { ...verdict, storyId: 'US\n1' };
    const message = formatVerdictMessage(odd);
    expect(message.split('\n')[0]).toBe('ralph: US 1 verified');
    expect(parseVerdictMessage(message)?.storyId).toBe('US\n1');
  });

  it('is null for any other commit, a broken body or a record that does not validate', () => {
    expect(parseVerdictMessage('feat: US-001 - Add greeting\n\nbody')).toBeNull();
    expect(parseVerdictMessage('ralph: US-001 verified\n\n{not json')).toBeNull();
    const bad = formatVerdictMessage(verdict).replace('"attempt": 2', '"attempt": 0');
    expect(parseVerdictMessage(bad)).toBeNull();
  });
});
