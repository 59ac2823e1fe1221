/**
 * The page, in the system's Chromium, through a `--parallel 3` run of the
 * real Claude Code killed with SIGKILL mid-attempt and run again: it says the
 * run stopped unexpectedly (naming what was in flight) within 5 s of the
 * kill, not "idle", says it is running again once the rerun starts, and the
 * done count it shows, sampled every 100 ms from the first run to the end of
 * the second, never goes down.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createParallelCampaignProject, runArgs } from '../faults/campaign-project.js';
import { type Browser, launchBrowser } from '../support/browser.js';
import type { LoopProject } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { runEvents, until } from '../support/stop-scenarios.js';

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

describe('the page through a killed parallel run', () => {
  it('shows it stopped unexpectedly within 5 s, running again on the rerun, and a done count that never goes down', async () => {
    project = await createParallelCampaignProject();
    const p = project;
    serve = await startServe(p.repo.dir);
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(serve.url);
    const badge = page.locator('.heading .badge');
    const totals = page.locator('.heading .totals');

    // The done count, every 100 ms, from before the first run to the end of the second.
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const text = (await totals.textContent({ timeout: 1_000 }).catch(() => null)) ?? '';
        const done = /^(\d+)\//.exec(text)?.[1];
        if (done !== undefined) samples.push(Number(done));
        await sleep(100);
      }
    })();

    let pid = 0;
    const first = p.run(runArgs('parallel'), { onSpawn: (spawned) => (pid = spawned) });
    await until(async () => (await runEvents(p)).some((e) => e.type === 'story-passed'), 'a story landed');
    await until(
      async () => (await runEvents(p)).filter((e) => e.type === 'iteration-started').length >= 3,
      'attempts under way',
    );
    await expect.poll(() => badge.textContent()).toBe('running');
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    expect((await first).signal).toBe('SIGKILL');

    await expect
      .poll(() => badge.textContent(), { timeout: 10_000, interval: 100 })
      .toBe('stopped unexpectedly');
    const noticedMs = Date.now() - killedAt;
    expect(noticedMs).toBeLessThanOrEqual(5_000);
    expect(await page.locator('.heading .detail').textContent()).toMatch(
      /stopped unexpectedly at \S+.*its process is gone/,
    );

    const second = p.run(runArgs('parallel'));
    await expect
      .poll(() => badge.textContent(), { timeout: 15_000, interval: 100 })
      .toMatch(/^(running|waiting)$/);
    const result = await second;
    expect(result.exitCode).toBe(0);
    await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toMatch(/^3\/3 /);
    await sleep(300);
    sampling = false;
    await sampler;

    console.log(
      `page: stopped unexpectedly shown ${noticedMs} ms after the kill; ${samples.length} samples of the done count`,
    );
    expect(samples.length).toBeGreaterThan(50);
    const drops = samples.flatMap((n, i) =>
      i > 0 && n < (samples[i - 1] ?? 0) ? [`${samples[i - 1]}→${n} at ${i}`] : [],
    );
    expect(drops).toEqual([]);
    expect(samples.at(-1)).toBe(3);
  });
});
