import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ATTEMPT_ENV, processesWithEnv } from '../agents/process-environ.js';
import { isRunning } from '../agents/process-tree.js';
import { stopLeftovers } from './stop-leftovers.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

/** A stand-in agent: its own group, a child in the group and one in a session of its own, all with the token. */
async function fakeAgent(token: string): Promise<number[]> {
  const child = spawn('sh', ['-c', 'sleep 300 & setsid sleep 300 & wait'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [ATTEMPT_ENV]: token },
  });
  if (child.pid === undefined) throw new Error('no pid');
  started.push(child.pid);
  for (let i = 0; i < 100; i++) {
    const found = processesWithEnv(ATTEMPT_ENV, token);
    if (found.length >= 3) {
      started.push(...found);
      return found;
    }
    await sleep(20);
  }
  throw new Error('the fake agent did not start its children');
}

describe('stopLeftovers', () => {
  it.each(['proc', 'ps'] as const)('finds every process of an attempt by its token (%s)', async (source) => {
    const token = randomUUID();
    const pids = await fakeAgent(token);
    expect(processesWithEnv(ATTEMPT_ENV, token, source).sort()).toEqual([...pids].sort());
    expect(processesWithEnv(ATTEMPT_ENV, randomUUID(), source)).toEqual([]);
  });

  it('stops an agent known only by its token, with everything it started', async () => {
    const token = randomUUID();
    const pids = await fakeAgent(token);
    await stopLeftovers({ token }, 500);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(processesWithEnv(ATTEMPT_ENV, token)).toEqual([]);
  });

  it('leaves other attempts alone', async () => {
    const other = await fakeAgent(randomUUID());
    await stopLeftovers({ token: randomUUID() }, 500);
    expect(other.filter(isRunning)).toEqual(other);
  });
});
