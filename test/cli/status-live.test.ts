/** `ralph status` while a run is going: the story being worked on, its attempt and how long it has run. */
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity } from '../../src/state/process-identity.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const story = (attempts: number) => ({
  attempts,
  costUsd: 0.01,
  inputTokens: 10,
  outputTokens: 2,
  durationMs: 1000,
  commits: [],
});

/** A run of PRD `demo` that is on its second attempt at US-002, started `agoMs` ago, held by `pid`. */
async function runInProgress(pid: number, agoMs: number): Promise<GitFixture> {
  repo = await createGitFixture({
    files: {
      '.ralph/prds/demo/prd.json': prdJson([
        { id: 'US-001', title: 'Add greeting' },
        { id: 'US-002', title: 'Add farewell' },
        { id: 'US-003', title: 'Add shout' },
      ]),
    },
  });
  const runDir = join(repo.dir, '.ralph', 'runs', 'demo');
  await mkdir(runDir, { recursive: true });
  const now = new Date();
  const started = new Date(now.getTime() - agoMs).toISOString();
  const head = await repo.head();
  const state = {
    version: 1,
    name: 'demo',
    taskPath: join(repo.dir, '.ralph/prds/demo/prd.json'),
    startedAt: started,
    updatedAt: now.toISOString(),
    iteration: 3,
    current: { storyId: 'US-002', attempt: 2, iteration: 3, headBefore: head, startedAt: started },
    stories: { 'US-001': story(1), 'US-002': story(2) },
    totals: { costUsd: 0.02, inputTokens: 20, outputTokens: 4, iterations: 3 },
  };
  await writeFile(join(runDir, 'state.json'), JSON.stringify(state));
  // As a real holder writes it: with its process start time, which tells it from a later process with its pid.
  const processStart = processIdentity(pid)?.start;
  const lock = { pid, host: hostname(), startedAt: started, command: 'ralph run demo', processStart };
  await writeFile(join(runDir, 'lock'), JSON.stringify(lock));
  return repo;
}

describe('ralph status during a run', () => {
  it('shows the running story as ● with its attempt and how long it has run', async () => {
    // This test process stands in for the live run holding the lock.
    const r = await runInProgress(process.pid, 125_000);
    const result = await runRalph(['status', 'demo'], { cwd: r.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^ {2}● US-002 {2}Add farewell {2}\(attempt 2, running 2m \d\ds\)$/m);
    expect(result.stdout).toMatch(/^ {2}○ US-003 {2}Add shout$/m);
    expect(result.stdout).toMatch(/^running: US-002 attempt 2 \(iteration 3\), for 2m \d\ds$/m);
    const json = JSON.parse((await runRalph(['status', 'demo', '--json'], { cwd: r.dir })).stdout) as {
      running: { storyId: string; attempt: number; elapsedMs: number; pid: number } | null;
    };
    expect(json.running).toMatchObject({ storyId: 'US-002', attempt: 2, pid: process.pid });
    expect(json.running?.elapsedMs).toBeGreaterThanOrEqual(125_000);
  });

  it('does not call a run live when its lock belongs to no running process', async () => {
    // A pid far above any the kernel hands out: the run that left this state is gone.
    const r = await runInProgress(2 ** 22 + 12345, 60_000);
    const result = await runRalph(['status', 'demo'], { cwd: r.dir });
    expect(result.stdout).toMatch(/^ {2}○ US-002 {2}Add farewell {2}\(2 attempts\)$/m);
    expect(result.stdout).not.toContain('running:');
    expect(result.stdout).toMatch(/interrupted/);
  });
});
