/**
 * What happened overnight, readable without raw JSON, with the real Claude
 * Code against the scripted model: `ralph logs --iteration N` tells an
 * iteration (the agent's words, its commands and their exits, the gate's
 * output, the verdict, the command that reopens a failed one); `-v` shows a
 * failed gate's output; a silent agent gets a heartbeat line; the iteration
 * counter means the same on a rerun; a story's time is its counted attempts'.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, type LoopProject, prdJson, runEvents } from '../support/loop-project.js';
import { withFailures } from '../support/model-script.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const ARGS = ['prd.json', '--headless', '--no-worktree'];
const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];

describe('the morning after', () => {
  it('ralph logs --iteration N tells a failed and a passed iteration; -v shows the failed gate', async () => {
    const gate = 'test -f ok.txt || { echo "ok.txt is missing"; exit 1; }';
    const first = implement('US-001', 'Add greeting', 'greet.txt', 'hello\n');
    const second = implement('US-001', 'Add greeting', 'ok.txt', 'ok\n');
    project = await createLoopProject(
      {
        'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
        '.ralph/config.yaml': `checks:\n  - ${JSON.stringify(gate)}\n`,
      },
      { 'US-001': [first, second] },
    );
    const run = await project.run([...ARGS, '-v']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/check failed \(exit 1\): test -f ok\.txt.*\n +ok\.txt is missing/);

    const cli = (args: string[]) => runRalph(args, { cwd: project?.repo.dir ?? '' });
    const failed = await cli(['logs', 'prd.json', '--iteration', '1']);
    expect(failed.exitCode).toBe(0);
    const text = failed.stdout;
    expect(text).toMatch(/^iteration 1 — US-001 Add greeting, attempt 1\/3 \(claude\), \d{4}-\d\d-\d\d /);
    expect(text).toContain('  ⚙ Write greet.txt');
    expect(text).toMatch(/ {2}\$ git add -A && git commit -q -m "feat: US-001 - Add greeting"\n {4}→ exit 0/);
    expect(text).toMatch(/agent: Implemented Add greeting\./);
    expect(text).toMatch(/gate failed \(exit 1\): test -f ok\.txt .*\n +ok\.txt is missing/);
    expect(text).toMatch(
      /verdict: ✗ failed \(check-failed\): The check `test -f ok\.txt .*` exited with code 1\. — will retry/,
    );
    expect(text).toMatch(/reopen it: cd \S+ && claude '?--resume=[0-9a-f-]{36}'?\n$/);

    const passed = await cli(['logs', 'prd.json', '--iteration', '2']);
    expect(passed.stdout).toMatch(/gate passed: test -f ok\.txt/);
    expect(passed.stdout).toMatch(/verdict: ✓ US-001 passed \([0-9a-f]{7}\)/);
    expect(passed.stdout).not.toContain('reopen it');
    // --raw is the agent's own stream, as before.
    const raw = await cli(['logs', 'prd.json', '--iteration', '1', '--raw']);
    expect(raw.stdout.split('\n')[0]).toMatch(/^\{"type":"system"/);
  });

  it('a silent agent gets a heartbeat line; a story is timed by its counted attempts, not the waits', async () => {
    const slow = implement('US-002', 'Add farewell', 'bye.txt', 'bye\n');
    project = await createLoopProject(
      { 'prd.json': prdJson(TWO) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [[{ ...slow[0], delayMs: 2600 } as (typeof slow)[number], ...slow.slice(1)]],
      },
      {
        // US-001's first try is refused as rate limited after 3 s: a wait, not the story's time.
        wrap: (script) =>
          withFailures(
            [{ error: { status: 429, type: 'rate_limit_error', message: 'slow down' }, delayMs: 3000 }],
            script,
          ),
      },
    );
    const run = await project.run(ARGS, {
      env: { RALPH_HEARTBEAT_MS: '1000', RALPH_RATE_LIMIT_BACKOFF_MS: '200' },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/ {2}US-002: claude silent for [12] s, attempt 1, \d+s\n/);
    const all = await runEvents(project);
    const passed = all.find((e) => e.type === 'story-passed' && e.storyId === 'US-001');
    expect(passed).toMatchObject({ attempt: 1 });
    // US-001's two agent runs: the rate-limited one (given back) and the one that counted.
    const [limited, counted] = all.filter((e) => e.type === 'agent-exited').map((e) => Number(e.durationMs));
    expect(all.filter((e) => e.type === 'rate-limited')).toHaveLength(1);
    expect(Number(passed?.durationMs)).toBeGreaterThanOrEqual(counted ?? Number.NaN);
    expect(Number(passed?.durationMs)).toBeLessThan((limited ?? 0) + (counted ?? 0));
  });

  it('the iteration counter means the same on a rerun: the run-wide number of the session’s last', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(TWO) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const first = await project.run([...ARGS, '-n', '1']);
    expect(first.exitCode).toBe(3);
    expect(first.stdout).toMatch(/iteration 1\/1: US-001/);
    // One story left: this session may run 1 + 5 iterations, numbered on from 1: up to 7.
    const rerun = await project.run(ARGS);
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stdout).toMatch(/iteration 2\/7: US-002/);
    const started = (await runEvents(project)).filter((e) => e.type === 'iteration-started');
    expect(started.map((e) => [e.iteration, e.lastIteration])).toEqual([
      [1, 1],
      [2, 7],
    ]);
  });
});
