import { describe, expect, it } from 'vitest';
import { judgeLock, type LockContext } from './lock-verdict.js';

const ctx = (over: Partial<LockContext> = {}): LockContext => ({
  host: 'here',
  pid: 100,
  ageMs: 60_000,
  graceMs: 5_000,
  isAlive: () => true,
  heldHere: false,
  ...over,
});

const content = (pid: number, host = 'here') =>
  JSON.stringify({ pid, host, startedAt: '2026-01-01T00:00:00Z', command: 'ralph run' });

describe('judgeLock', () => {
  it('holds for a live process on this host', () => {
    expect(judgeLock(content(7), ctx())).toMatchObject({ kind: 'held', reason: 'running', info: { pid: 7 } });
  });

  it('is stale when the process is gone', () => {
    expect(judgeLock(content(7), ctx({ isAlive: () => false }))).toMatchObject({
      kind: 'stale',
      reason: 'not-running',
    });
  });

  it('is stale when the live pid is another program: another start time, or no ralph in its command line', () => {
    const withStart = (start: string) =>
      JSON.stringify({
        pid: 7,
        host: 'here',
        startedAt: '2026-01-01T00:00:00Z',
        command: 'ralph run',
        processStart: start,
      });
    const identify = () => ({ start: 'b:100', commandLine: 'node /usr/lib/ralph/dist/cli/main.js run' });
    expect(judgeLock(withStart('b:100'), ctx({ identify }))).toMatchObject({
      kind: 'held',
      reason: 'running',
    });
    expect(judgeLock(withStart('b:99'), ctx({ identify }))).toMatchObject({
      kind: 'stale',
      reason: 'pid-reused',
    });
    // Older locks have no start time: the command line decides.
    expect(judgeLock(content(7), ctx({ identify }))).toMatchObject({ kind: 'held', reason: 'running' });
    const sleeper = () => ({ start: 'b:5', commandLine: 'sleep 300' });
    expect(judgeLock(content(7), ctx({ identify: sleeper }))).toMatchObject({
      kind: 'stale',
      reason: 'pid-reused',
    });
    // Nothing readable: presumed to be the holder.
    expect(judgeLock(withStart('b:99'), ctx({ identify: () => null }))).toMatchObject({ kind: 'held' });
    expect(judgeLock(withStart('b:99'), ctx({ identify: () => ({}) }))).toMatchObject({ kind: 'held' });
  });

  it('is stale when it names our own pid, which cannot be holding it', () => {
    expect(judgeLock(content(100), ctx())).toMatchObject({ kind: 'stale', reason: 'not-running' });
    expect(judgeLock(content(100), ctx({ heldHere: true }))).toMatchObject({
      kind: 'held',
      reason: 'running',
    });
  });

  it('never judges another host’s process', () => {
    const isAlive = () => {
      throw new Error('must not check a pid from another host');
    };
    expect(judgeLock(content(7, 'there'), ctx({ isAlive }))).toMatchObject({
      kind: 'held',
      reason: 'other-host',
    });
  });

  it('gives unreadable content a grace period before calling it stale', () => {
    for (const garbage of ['', '{"pid":', 'null', '{"pid":"x","host":"here"}']) {
      expect(judgeLock(garbage, ctx({ ageMs: 100 }))).toEqual({
        kind: 'held',
        info: null,
        reason: 'being-written',
      });
      expect(judgeLock(garbage, ctx({ ageMs: 10_000 }))).toEqual({
        kind: 'stale',
        info: null,
        reason: 'unreadable',
      });
    }
  });
});
