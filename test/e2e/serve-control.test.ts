/**
 * The page's Pause and Stop buttons, on a run of the real Claude Code
 * started in another terminal: they reach it through its control file, as
 * the first and the second Ctrl-C. Pause lets the iteration under way finish;
 * Stop kills the agent, and its attempt is rolled back, not counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../support/browser.js';
import { featSubjects, type LoopProject } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { runEvents, slowGate, slowMiddleStory, until } from '../support/stop-scenarios.js';
import { storyIdOf } from '../support/story-script.js';

let project: LoopProject | undefined;
let serve: ServeProcess | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  await serve?.stop();
  if (project) for (const p of processesIn(project.repo.dir)) process.kill(p.pid, 'SIGKILL');
  await project?.cleanup();
  browser = serve = project = undefined;
});

async function openPage(p: LoopProject) {
  serve = await startServe(p.repo.dir);
  browser = await launchBrowser();
  const page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(serve.url);
  return page;
}

describe('the Pause and Stop buttons', () => {
  it('Pause: the story under way lands, then the run stops, as after one Ctrl-C', async () => {
    project = await slowMiddleStory();
    const p = project;
    const page = await openPage(p);
    const run = p.run(['demo', '--headless', '--no-worktree']);
    await until(() => p.server.modelCalls().some((r) => storyIdOf(r) === 'US-002'), 'US-002');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('.controls .pause').textContent()).toBe('Pausing…');

    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toMatch(/paused from the web page: stopping after this iteration/);
    expect(result.stdout).toMatch(/✓ US-002 passed/);
    expect(result.stdout).toMatch(/stopped — 2\/3 passed/);
    expect((await runEvents(p)).filter((e) => e.type === 'stop-requested')).toEqual([
      expect.objectContaining({ how: 'graceful', from: 'web page' }),
    ]);
    expect(await featSubjects(p.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
    // The run is over: its buttons go, and the page says how it ended.
    await expect.poll(() => page.locator('.controls').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.locator('.detail').textContent()).toMatch(/2\/3|stopped|interrupted/);
    // ...and how it goes on.
    await expect
      .poll(() => page.locator('.detail').textContent())
      .toContain('`ralph run demo` goes on from there');
  });

  it('Stop: the agent and its gate are killed now, and the attempt is rolled back without counting', async () => {
    project = await slowGate();
    const p = project;
    const page = await openPage(p);
    page.on('dialog', (dialog) => void dialog.accept());
    const started = Date.now();
    const run = p.run(['demo', '--headless', '--no-worktree', '--max-retries', '1']);
    await until(async () => (await runEvents(p)).some((e) => e.type === 'check-started'), 'the gate');
    await page.getByRole('button', { name: 'Stop' }).click();

    const result = await run;
    expect(result.exitCode).toBe(130);
    // Long before the 60 s gate would have ended on its own.
    expect(Date.now() - started).toBeLessThan(55_000);
    expect(result.stdout).toMatch(/stopped from the web page: killing the agent/);
    const all = await runEvents(p);
    expect(all.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked')).toEqual([]);
    expect(all.at(-1)).toMatchObject({ type: 'run-finished', reason: 'interrupted', passed: 0 });
    const state = JSON.parse(await p.read('.ralph/runs/demo/state.json')) as {
      stories: Record<string, { attempts: number }>;
    };
    expect(state.stories['US-001']).toMatchObject({ attempts: 0 });
    expect(await featSubjects(p.repo)).toEqual([]);
    // Nothing of the run is left; the server, still serving, is the only process in the project.
    expect(processesIn(p.repo.dir).map((x) => x.pid)).toEqual([serve?.child.pid]);
  });
});
