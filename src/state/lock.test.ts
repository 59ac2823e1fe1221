import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RalphError } from '../core/errors.js';
import { acquireLock, inspectLock } from './lock.js';
import { processIdentity } from './process-identity.js';

let dir: string;
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-lock-'));
  lockPath = path.join(dir, 'runs', 'main', 'lock');
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await fs.rm(dir, { recursive: true, force: true });
});

async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  const pid = child.pid;
  if (pid === undefined) throw new Error('child has no pid');
  return Object.assign(child, { pid });
}

async function writeLock(content: object | string, ageMs = 0): Promise<void> {
  await fs.mkdir(path.dirname(lockPath), { recursive: true });
  await fs.writeFile(lockPath, typeof content === 'string' ? content : JSON.stringify(content));
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    await fs.utimes(lockPath, then, then);
  }
}

/** What a real holder writes: with its start time when it is alive here. */
const info = (pid: number, host = os.hostname()) => {
  const processStart = host === os.hostname() ? processIdentity(pid)?.start : undefined;
  return {
    pid,
    host,
    startedAt: '2026-01-01T00:00:00.000Z',
    command: 'ralph run main',
    ...(processStart !== undefined ? { processStart } : {}),
  };
};

async function lockedError(promise: Promise<unknown>): Promise<RalphError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RalphError);
  if (!(error instanceof RalphError)) throw new Error('unreachable');
  expect(error.code).toBe('locked');
  expect(error.exitCode).toBe(5);
  return error;
}

describe('acquireLock', () => {
  it('creates the lock with pid, host, start time and command, and releases it', async () => {
    const lock = await acquireLock(lockPath, { command: 'ralph run main' });
    expect(lock.tookOver).toBeNull();
    const written: unknown = JSON.parse(await fs.readFile(lockPath, 'utf8'));
    expect(written).toEqual({
      pid: process.pid,
      host: os.hostname(),
      startedAt: lock.info.startedAt,
      command: 'ralph run main',
      processStart: processIdentity(process.pid)?.start,
    });
    expect(await inspectLock(lockPath)).toMatchObject({ kind: 'held', reason: 'running' });
    await lockedError(acquireLock(lockPath));
    await lock.release();
    await lock.release();
    await expect(fs.stat(lockPath)).rejects.toThrow();
    expect(await inspectLock(lockPath)).toEqual({ kind: 'free' });
  });

  it('refuses a lock held by a live process, naming it', async () => {
    const child = await liveProcess();
    await writeLock(info(child.pid));
    const error = await lockedError(acquireLock(lockPath));
    expect(error.message).toContain(String(child.pid));
    expect(error.message).toContain(os.hostname());
    expect(await inspectLock(lockPath)).toMatchObject({ kind: 'held', reason: 'running' });
    expect(JSON.parse(await fs.readFile(lockPath, 'utf8'))).toEqual(info(child.pid));
  });

  it('takes over the lock of a process that was killed', async () => {
    const child = await liveProcess();
    const written = info(child.pid);
    await writeLock(written);
    await lockedError(acquireLock(lockPath));
    child.kill('SIGKILL');
    await once(child, 'exit');
    const lock = await acquireLock(lockPath, { takeoverStale: true });
    expect(lock.tookOver).toEqual({ previous: written, reason: 'not-running' });
    expect(JSON.parse(await fs.readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('tells a pid reused by another program from the holder, by start time or command line', async () => {
    const child = await liveProcess();
    await writeLock({ ...info(child.pid), processStart: 'another-boot:1' });
    const lock = await acquireLock(lockPath);
    expect(lock.tookOver).toMatchObject({ previous: { pid: child.pid }, reason: 'pid-reused' });
    await lock.release();
    // An older lock without a start time: the live process's command line does not mention ralph.
    const { processStart: _, ...older } = info(child.pid);
    await writeLock(older);
    expect(await inspectLock(lockPath)).toMatchObject({ kind: 'stale', reason: 'pid-reused' });
  });

  it('leaves a stale lock alone when takeover is off', async () => {
    const child = await liveProcess();
    child.kill('SIGKILL');
    await once(child, 'exit');
    await writeLock(info(child.pid));
    const error = await lockedError(acquireLock(lockPath, { takeoverStale: false }));
    expect(error.message).toContain('stale');
  });

  it('treats a lock from another host as held unless forced', async () => {
    await writeLock(info(4242, 'some-other-host'));
    const error = await lockedError(acquireLock(lockPath));
    expect(error.message).toContain('some-other-host');
    expect(error.details.join('\n')).toContain('--force');
    const lock = await acquireLock(lockPath, { force: true });
    expect(lock.tookOver).toEqual({ previous: info(4242, 'some-other-host'), reason: 'forced' });
    await lock.release();
  });

  it('waits out garbage that may still be being written, then takes it over', async () => {
    await writeLock('');
    await lockedError(acquireLock(lockPath));
    await writeLock('{"pid": 12', 60_000);
    const lock = await acquireLock(lockPath);
    expect(lock.tookOver).toEqual({ previous: null, reason: 'unreadable' });
    await lock.release();
  });

  it('takes over a lock left with this pid by an earlier process', async () => {
    await writeLock(info(process.pid));
    const lock = await acquireLock(lockPath);
    expect(lock.tookOver).toEqual({ previous: info(process.pid), reason: 'not-running' });
    await lock.release();
  });

  it('release leaves alone a lock that another run has since taken', async () => {
    const lock = await acquireLock(lockPath);
    const child = await liveProcess();
    await writeLock(info(child.pid));
    await lock.release();
    expect(JSON.parse(await fs.readFile(lockPath, 'utf8'))).toEqual(info(child.pid));
  });

  it('keeps a live holder’s lock intact under many concurrent attempts', async () => {
    const child = await liveProcess();
    await writeLock(info(child.pid));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => acquireLock(lockPath)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(JSON.parse(await fs.readFile(lockPath, 'utf8'))).toEqual(info(child.pid));
  });
});
