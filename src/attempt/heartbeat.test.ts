import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../events/run-event.js';
import { describeEvent } from '../ui/plain-reporter.js';
import { startHeartbeat } from './heartbeat.js';

describe('startHeartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('beats after each stretch of silence, and starts over when the agent speaks', () => {
    const beats: { silentMs: number; elapsedMs: number }[] = [];
    const heart = startHeartbeat(30_000, (b) => beats.push(b));
    heart.start();
    vi.advanceTimersByTime(29_999);
    expect(beats).toEqual([]);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(30_000);
    expect(beats.map((b) => Math.round(b.silentMs / 1000))).toEqual([30, 60]);
    heart.heard();
    vi.advanceTimersByTime(29_000);
    expect(beats).toHaveLength(2);
    vi.advanceTimersByTime(1_000);
    expect(beats.at(-1)).toMatchObject({ silentMs: 30_000, elapsedMs: 90_000 });
    heart.stop();
    vi.advanceTimersByTime(120_000);
    expect(beats).toHaveLength(3);
  });

  it('never beats when switched off, or before the agent runs', () => {
    const beats: unknown[] = [];
    startHeartbeat(0, (b) => beats.push(b)).start();
    const notStarted = startHeartbeat(1000, (b) => beats.push(b));
    notStarted.heard();
    vi.advanceTimersByTime(10_000);
    expect(beats).toEqual([]);
  });
});

describe('the heartbeat line', () => {
  it('names the story, the agent, the silence, the attempt and how long the attempt has run', () => {
    const event: RunEvent = {
      type: 'agent-silent',
      iteration: 3,
      storyId: 'US-002',
      agent: 'claude',
      silentMs: 30_200,
      attempt: 1,
      elapsedMs: 130_000,
    };
    expect(describeEvent(event, false)).toBe('  US-002: claude silent for 30 s, attempt 1, 2m10s');
  });
});
