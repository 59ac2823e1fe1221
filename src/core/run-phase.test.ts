import { describe, expect, it } from 'vitest';
import { inFlightOf, type PhaseFacts, runPhase, stoppedUnexpectedly } from './run-phase.js';

const facts = (over: Partial<PhaseFacts> = {}): PhaseFacts => ({
  live: false,
  waiting: false,
  inFlight: [],
  sessionOpen: false,
  allDone: false,
  stopped: false,
  invalid: false,
  ...over,
});

describe('runPhase', () => {
  it('tells running, waiting, finished and stopped unexpectedly apart', () => {
    expect(runPhase(facts({ live: true, inFlight: ['US-001 attempt 1'] }))).toBe('running');
    expect(runPhase(facts({ live: true, waiting: true }))).toBe('waiting');
    expect(runPhase(facts({ allDone: true }))).toBe('complete');
    expect(runPhase(facts({ stopped: true }))).toBe('stopped');
    expect(runPhase(facts())).toBe('idle');
    // The lock's holder is gone: work in flight, or a session that never wrote its end.
    expect(runPhase(facts({ inFlight: ['landing US-002'], stopped: true }))).toBe('stopped-unexpectedly');
    expect(runPhase(facts({ sessionOpen: true }))).toBe('stopped-unexpectedly');
    expect(runPhase(facts({ sessionOpen: true, live: true }))).toBe('running');
  });

  it('names what a parallel run had in flight: attempts, a landing, a resolution', () => {
    expect(
      inFlightOf({
        current: null,
        running: [
          { storyId: 'US-001', attempt: 2 },
          { storyId: 'US-003', attempt: 1 },
        ],
        integrating: { storyId: 'US-002' },
        resolving: { storyId: 'US-004' },
      }),
    ).toEqual(['US-001 attempt 2', 'US-003 attempt 1', 'landing US-002', 'resolving US-004']);
    expect(stoppedUnexpectedly('2026-01-01T00:00:00.000Z', ['landing US-002'])).toMatch(
      /^stopped unexpectedly at 2026-01-01T00:00:00.000Z with landing US-002 in flight/,
    );
  });
});
