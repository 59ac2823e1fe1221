import { describe, expect, it } from 'vitest';
import { formatSetbackMessage, parseSetbackMessage, type StorySetback } from './story-setback.js';
import { formatVerdictMessage, parseVerdictMessage } from './story-verdict.js';

const setback: StorySetback = {
  version: 1,
  prd: 'demo',
  storyId: 'US-001',
  attempts: 2,
  parked: false,
  failure: { kind: 'conflict', reason: 'src/a.ts conflicted with US-002', gateOutputTail: '<<<<<<< HEAD' },
  at: '2026-01-02T03:04:05.000Z',
};

describe('story setbacks', () => {
  it('round-trips through the commit message', () => {
    const message = formatSetbackMessage(setback);
    expect(message.split('\n')[0]).toBe('ralph: US-001 failed');
    expect(parseSetbackMessage(message)).toEqual(setback);
  });

  it('a requeue is told apart by its subject, and round-trips with its count and files', () => {
    const requeue: StorySetback = {
      ...setback,
      attempts: 0,
      requeued: true,
      requeues: 1,
      files: ['REGISTRY.md'],
    };
    const message = formatSetbackMessage(requeue);
    expect(message.split('\n')[0]).toBe('ralph: US-001 requeued');
    expect(parseSetbackMessage(message)).toEqual(requeue);
  });

  it('is never taken for a verdict, nor a verdict for a setback', () => {
    expect(parseVerdictMessage(formatSetbackMessage(setback))).toBeNull();
    const verdict = formatVerdictMessage({
      version: 1,
      prd: 'demo',
      storyId: 'US-001',
      attempt: 1,
      base: 'a'.repeat(40),
      head: 'b'.repeat(40),
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      durationMs: 0,
      verifiedAt: '2026-01-02T03:04:05.000Z',
      summary: '',
      learnings: [],
    });
    expect(parseSetbackMessage(verdict)).toBeNull();
  });

  it('rejects a message whose body does not validate, or with no body', () => {
    expect(parseSetbackMessage('ralph: US-001 failed')).toBeNull();
    expect(parseSetbackMessage('ralph: US-001 failed\n\n{"version":1}')).toBeNull();
    expect(parseSetbackMessage('ralph: US-001 failed\n\nnot json')).toBeNull();
    expect(
      parseSetbackMessage(formatSetbackMessage(setback).replace('"attempts": 2', '"attempts": 0')),
    ).toBeNull();
  });

  it('keeps control characters of an id out of the subject', () => {
    const message = formatSetbackMessage({ ...setback, storyId: 'US\n1' });
    expect(message.split('\n')[0]).toBe('ralph: US 1 failed');
    expect(parseSetbackMessage(message)?.storyId).toBe('US\n1');
  });
});
