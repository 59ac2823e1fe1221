import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
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

let repo: TempRepo;
let dir: string;
let events: HookEvent[];
let runners: HookRunner[];
beforeEach(async () => {
  // Hooks run in a loop's checkout: a repository whose run folder git ignores.
  repo = await makeTempRepo();
  dir = repo.dir;
  await repo.commit('init', { 'README.md': 'x\n', '.ralph/.gitignore': 'runs/\n' });
  events = [];
  runners = [];
});
afterEach(async () => {
  // Every runner ends (and writes its last records) before its folder goes.
  for (const r of runners) await r.drain(0);
  await repo.cleanup();
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
    // What it wrote (vars.txt) is committed by ralph, as a commit of its own.
    expect(events.map((e) => `${e.type}:${e.hookId}`)).toEqual([
      'hook-started:vars',
      'hook-finished:vars',
      'hook-committed:vars',
    ]);
    await hooks.drain(1000);
    const saved = await readEvents(hookTasksFile(runDir()));
    // Started, finished, then its commit noted.
    expect(saved.map((r) => (r as { status: string }).status)).toEqual(['running', 'completed', 'completed']);
    expect((saved[2] as { commits?: string[] }).commits).toEqual([await repo.git('rev-parse', 'HEAD')]);
  });

  it('never pastes a variable into the command line', async () => {
    const hooks = runner([hook({ id: 'safe', run: 'printf %s "$STEP_ID" > step.txt' })]);
    await hooks.afterIteration({ ...vars, stepId: '$(touch pwned); `touch pwned2`' });
    expect(await readFile(path.join(dir, 'step.txt'), 'utf8')).toBe('$(touch pwned); `touch pwned2`');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect(existsSync(path.join(dir, 'pwned2'))).toBe(false);
  });

  it('leaves a parallel hook running and goes on; drain waits for it', async () => {
    const release = path.join(dir, '.ralph', 'runs', 'release');
    const hooks = runner(
      [
        hook({
          id: 'bg',
          parallel: true,
          run: `while [ ! -f "$RELEASE" ]; do sleep 0.02; done; echo bg > bg.txt`,
        }),
        hook({ id: 'after', run: 'echo after > after.txt' }),
      ],
      { env: { ...process.env, RELEASE: release } },
    );
    await hooks.afterIteration(vars);
    // The sequential hook ran (sequential ones first), while the parallel one cannot have finished.
    expect(existsSync(path.join(dir, 'after.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'bg.txt'))).toBe(false);
    expect(hooks.records().find((r) => r.hookId === 'bg')?.status).toBe('running');
    await writeFile(release, '');
    await hooks.drain(20_000);
    expect(await readFile(path.join(dir, 'bg.txt'), 'utf8')).toBe('bg\n');
    expect(hooks.records().map((r) => [r.hookId, r.status])).toEqual([
      ['after', 'completed'],
      ['bg', 'completed'],
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
    const pidFile = path.join(dir, '.ralph', 'runs', 'child.pid');
    const hooks = runner(
      [hook({ id: 'slow', parallel: true, run: 'sleep 30 & echo $! > "$PID_FILE"; wait' })],
      { env: { ...process.env, PID_FILE: pidFile } },
    );
    await hooks.afterIteration(vars);
    await waitForFile(pidFile);
    const child = Number((await readFile(pidFile, 'utf8')).trim());
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

  it('commits what a sequential hook writes right after it, and records the commit', async () => {
    const hooks = runner([hook({ id: 'notes', run: 'echo "$ITERATION $STEP_ID" >> NOTES.md' })]);
    await hooks.afterIteration(vars);
    await hooks.afterIteration({ ...vars, iteration: 5, stepId: 'step-3' });
    expect(await repo.git('status', '--porcelain')).toBe('');
    expect((await repo.git('log', '--format=%s', '-3')).split('\n')).toEqual([
      'chore(ralph): hook notes after iteration 5',
      'chore(ralph): hook notes after iteration 4',
      'init',
    ]);
    expect(await readFile(path.join(dir, 'NOTES.md'), 'utf8')).toBe('4 step-2\n5 step-3\n');
    const head = await repo.git('rev-parse', 'HEAD');
    expect(hooks.records()[1]?.commits).toEqual([head]);
  });

  it('never commits a temporary file of ralph’s, whoever left it', async () => {
    const hooks = runner([hook({ id: 'notes', run: 'echo x >> NOTES.md; touch .state.json.ralph-tmp-1-1' })]);
    await hooks.afterIteration(vars);
    expect(await repo.git('ls-files')).not.toContain('ralph-tmp');
    expect(await repo.git('ls-files', 'NOTES.md')).toBe('NOTES.md');
  });

  it('runs a parallel hook in a checkout of its own and lands what it wrote between iterations', async () => {
    const hooks = runner([hook({ id: 'docs', parallel: true, run: 'echo "doc $ITERATION" >> DOCS.md' })]);
    await hooks.afterIteration(vars);
    await waitFor(() => hooks.records()[0]?.status === 'completed');
    // Finished, but nothing lands while an attempt may be running.
    expect(existsSync(path.join(dir, 'DOCS.md'))).toBe(false);
    // The next attempt commits meanwhile; the hook's work lands on top of it.
    await repo.commit('feat: work', { 'work.txt': 'w\n' });
    await hooks.betweenIterations();
    expect(await readFile(path.join(dir, 'DOCS.md'), 'utf8')).toBe('doc 4\n');
    expect((await repo.git('log', '--format=%s', '-2')).split('\n')).toEqual([
      'chore(ralph): hook docs after iteration 4',
      'feat: work',
    ]);
    expect(await repo.git('status', '--porcelain')).toBe('');
    // Its checkout is gone, from disk and from git.
    expect(await repo.git('worktree', 'list', '--porcelain')).not.toContain('checkouts');
    expect(events.map((e) => e.type)).toContain('hook-committed');
  });

  it('starts the next run of a parallel hook only after the previous one landed, on top of it', async () => {
    const release = path.join(dir, '.ralph', 'runs', 'release');
    const hooks = runner(
      [
        hook({
          id: 'log',
          parallel: true,
          run: 'if [ "$ITERATION" = 4 ]; then while [ ! -f "$RELEASE" ]; do sleep 0.02; done; fi; echo "it $ITERATION" >> LOG.md',
        }),
      ],
      { env: { ...process.env, RELEASE: release } },
    );
    await hooks.afterIteration(vars);
    await hooks.afterIteration({ ...vars, iteration: 5 });
    // Run 5 waits for run 4, which is still going.
    expect(hooks.records().map((r) => r.iteration)).toEqual([4]);
    await writeFile(release, '');
    await hooks.drain(20_000);
    expect(await readFile(path.join(dir, 'LOG.md'), 'utf8')).toBe('it 4\nit 5\n');
    expect(hooks.records().map((r) => [r.iteration, r.status])).toEqual([
      [4, 'completed'],
      [5, 'completed'],
    ]);
  });

  it('keeps a parallel hook’s work under a ref when it conflicts with the branch', async () => {
    const hooks = runner([hook({ id: 'readme', parallel: true, run: 'echo hook > README.md' })]);
    await hooks.afterIteration(vars);
    await waitFor(() => hooks.records()[0]?.status === 'completed');
    await repo.commit('feat: readme', { 'README.md': 'agent\n' });
    await hooks.betweenIterations();
    expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toBe('agent\n');
    expect(await repo.git('status', '--porcelain')).toBe('');
    const [record] = hooks.records();
    expect(record?.keptAt).toMatch(/^refs\/ralph\/hooks\/demo\/4-readme-/);
    expect(await repo.git('show', `${record?.keptAt}:README.md`)).toBe('hook');
    expect(events.find((e) => e.type === 'hook-not-landed')).toMatchObject({ hookId: 'readme' });
  });

  it('runs a workflow hook from its prompt file, and fails one whose file is missing', async () => {
    const hooks = runner([hook({ id: 'docs', workflow: 'doc-update' })]);
    await hooks.afterIteration(vars);
    expect(hooks.records()[0]).toMatchObject({ kind: 'prompt', status: 'failed' });
    expect(hooks.records()[0]?.error).toMatch(/no workflow file .*\.ralph\/workflows\/doc-update\.md/);
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 800 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}
