import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { isRunning } from '../agents/process-tree.js';
import type { Hook } from '../state/config-schema.js';
import { readEvents } from '../state/event-log.js';
import {
  createHookRunner,
  type HookEvent,
  type HookRunner,
  type HookRunnerOptions,
  hookTasksFile,
} from './hooks.js';

let dir: string;
let events: HookEvent[];
let runners: HookRunner[];
beforeEach(async () => {
  dir = await makeTempDir('hooks');
  events = [];
  runners = [];
});
afterEach(async () => {
  // Every runner ends (and writes its last records) before its folder goes.
  for (const r of runners) await r.drain(0);
  await removeTempDir(dir);
});

const runDir = () => path.join(dir, '.ralph', 'runs', 'demo');
const hook = (over: Partial<Hook> & { id: string }): Hook => ({ parallel: false, enabled: true, ...over });
function runner(hooks: Hook[], over: Partial<HookRunnerOptions> = {}): HookRunner {
  const created = createHookRunner({
    hooks,
    cwd: dir,
    runDir: runDir(),
    emit: (e) => events.push(e),
    ...over,
  });
  runners.push(created);
  return created;
}
const vars = { iteration: 4, runId: 'demo', transcript: '/runs/demo/iterations/4.jsonl', stepId: 'step-2' };

/** Polls for a file a hook writes; hooks in these tests finish in milliseconds. */
async function waitForFile(file: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('createHookRunner', () => {
  it('runs a sequential command hook before returning, with the variables in its environment', async () => {
    const hooks = runner([
      hook({
        id: 'vars',
        run: 'printf "%s|%s|%s|%s|%s|%s|%s" "$ITERATION" "$RUN_ID" "$STEP_ID" "$STORY_ID" "$ITERATION_TRANSCRIPT" "$PRD" "$SPRINT_ID" > vars.txt; echo hello',
      }),
    ]);
    await hooks.afterIteration(vars);
    expect(await readFile(path.join(dir, 'vars.txt'), 'utf8')).toBe(
      '4|demo|step-2||/runs/demo/iterations/4.jsonl||demo',
    );
    const [record] = hooks.records();
    expect(record).toMatchObject({
      iteration: 4,
      hookId: 'vars',
      kind: 'run',
      status: 'completed',
      exitCode: 0,
    });
    expect(await readFile(record?.outputFile ?? '', 'utf8')).toBe('hello\n');
    expect(events.map((e) => `${e.type}:${e.hookId}`)).toEqual(['hook-started:vars', 'hook-finished:vars']);
    await hooks.drain(1000);
    const saved = await readEvents(hookTasksFile(runDir()));
    expect(saved.map((r) => (r as { status: string }).status)).toEqual(['running', 'completed']);
  });

  it('never pastes a variable into the command line', async () => {
    const hooks = runner([hook({ id: 'safe', run: 'printf %s "$STEP_ID" > step.txt' })]);
    await hooks.afterIteration({ ...vars, stepId: '$(touch pwned); `touch pwned2`' });
    expect(await readFile(path.join(dir, 'step.txt'), 'utf8')).toBe('$(touch pwned); `touch pwned2`');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect(existsSync(path.join(dir, 'pwned2'))).toBe(false);
  });

  it('leaves a parallel hook running and goes on; drain waits for it', async () => {
    const release = path.join(dir, 'release');
    const hooks = runner([
      hook({
        id: 'bg',
        parallel: true,
        run: `while [ ! -f release ]; do sleep 0.02; done; echo bg > bg.txt`,
      }),
      hook({ id: 'after', run: 'echo after > after.txt' }),
    ]);
    await hooks.afterIteration(vars);
    // The sequential hook after it already ran, while the parallel one cannot have finished.
    expect(existsSync(path.join(dir, 'after.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'bg.txt'))).toBe(false);
    expect(hooks.records().find((r) => r.hookId === 'bg')?.status).toBe('running');
    await writeFile(release, '');
    await hooks.drain(20_000);
    expect(await readFile(path.join(dir, 'bg.txt'), 'utf8')).toBe('bg\n');
    expect(hooks.records().map((r) => [r.hookId, r.status])).toEqual([
      ['bg', 'completed'],
      ['after', 'completed'],
    ]);
  });

  it('records a failing hook, reports it, and runs the next one', async () => {
    const hooks = runner([
      hook({ id: 'broken', run: 'echo oops >&2; exit 3' }),
      hook({ id: 'next', run: 'echo ok > next.txt' }),
      hook({ id: 'off', run: 'echo no > off.txt', enabled: false }),
    ]);
    await hooks.afterIteration(vars);
    expect(hooks.records().map((r) => [r.hookId, r.status, r.exitCode])).toEqual([
      ['broken', 'failed', 3],
      ['next', 'completed', 0],
    ]);
    const failed = events.find((e) => e.type === 'hook-finished' && e.hookId === 'broken');
    expect(failed).toMatchObject({ status: 'failed', exitCode: 3, error: 'exit code 3' });
    expect(await readFile(hooks.records()[0]?.outputFile ?? '', 'utf8')).toBe('oops\n');
    expect(existsSync(path.join(dir, 'off.txt'))).toBe(false);
  });

  it('kills parallel hooks still running after the drain limit, with what they started', async () => {
    const hooks = runner([hook({ id: 'slow', parallel: true, run: 'sleep 30 & echo $! > child.pid; wait' })]);
    await hooks.afterIteration(vars);
    await waitForFile(path.join(dir, 'child.pid'));
    const child = Number((await readFile(path.join(dir, 'child.pid'), 'utf8')).trim());
    expect(isRunning(child)).toBe(true);
    await hooks.drain(50);
    expect(isRunning(child)).toBe(false);
    expect(hooks.records()[0]).toMatchObject({
      status: 'failed',
      error: 'killed: still running when the run ended',
    });
  });

  it('stops waiting at once when the drain is aborted, and starts no hook afterwards', async () => {
    const hooks = runner([hook({ id: 'slow', parallel: true, run: 'sleep 30' })]);
    await hooks.afterIteration(vars);
    const now = new AbortController();
    now.abort();
    await hooks.drain(60_000, now.signal);
    expect(hooks.records()[0]).toMatchObject({
      status: 'failed',
      error: 'killed: still running when the run ended',
    });
    await hooks.afterIteration({ ...vars, iteration: 5 });
    expect(hooks.records()).toHaveLength(1);
  });

  it('fails a prompt hook cleanly when no agent is configured', async () => {
    const hooks = runner([hook({ id: 'ask', prompt: 'Summarise $ITERATION_TRANSCRIPT' })]);
    await hooks.afterIteration(vars);
    expect(hooks.records()[0]).toMatchObject({
      kind: 'prompt',
      status: 'failed',
      error: 'a prompt hook needs an agent, and none is configured',
    });
  });
});
