/**
 * `ralph serve` in a real browser (the system's Chromium): the page lists a
 * project's stories with their state, attempts, time and cost, shows a
 * waiting story's question, records the answer typed into **Answer** and
 * sent with **Send**, follows the run's log as it grows, fits a phone, and
 * shows a story title made of HTML as the text it is.
 * `RALPH_WRITE_SCREENSHOT=1` also writes docs/serve.png, the picture on docs/web.md.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../support/browser.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

const XSS_TITLE = '<img src=x onerror="window.__xss=1">Export <b>CSV</b>';
const QUESTION = 'Which database should the export read from: the replica or <i>primary</i>?';
const RUN = '.ralph/runs/demo';

let repo: GitFixture | undefined;
let serve: ServeProcess | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  await serve?.stop();
  await repo?.cleanup();
  browser = serve = repo = undefined;
});

const at = (minute: number): string => new Date(Date.UTC(2026, 0, 12, 22, minute)).toISOString();
const record = (minute: number, event: Record<string, unknown>): string =>
  `${JSON.stringify({ at: at(minute), run: 'demo', ...event })}\n`;

const storyRun = (attempts: number, costUsd: number, durationMs: number, extra: object = {}) => ({
  attempts,
  costUsd,
  inputTokens: 1000 * attempts,
  outputTokens: 200 * attempts,
  durationMs,
  commits: [],
  ...extra,
});

/** A project whose run `demo` passed one story, parked one, and waits on a question for another. */
async function project(): Promise<GitFixture> {
  const prd = {
    project: 'Reports',
    userStories: [
      ['US-001', 'Add the reports page', true],
      ['US-002', XSS_TITLE, false],
      ['US-003', 'Schedule nightly reports', false],
      ['US-004', 'Email the report', false],
    ].map(([id, title, passes], i) => ({
      id,
      title,
      acceptanceCriteria: ['it works'],
      priority: i + 1,
      passes,
    })),
  };
  const fixture = await createGitFixture({
    files: { '.ralph/prds/demo/prd.json': JSON.stringify(prd, null, 2) },
  });
  const state = {
    version: 1,
    name: 'demo',
    taskPath: join(fixture.dir, '.ralph/prds/demo/prd.json'),
    startedAt: at(0),
    updatedAt: at(40),
    iteration: 5,
    current: null,
    stories: {
      'US-001': storyRun(1, 0.42, 185_000, { passedAt: at(4) }),
      'US-002': storyRun(1, 0.31, 95_000),
      'US-003': storyRun(3, 1.05, 610_000, {
        parked: true,
        lastFailure: { reason: 'the check `npm test` failed (exit 1)', kind: 'gate', at: at(38) },
      }),
    },
    totals: { costUsd: 1.78, inputTokens: 5000, outputTokens: 1000, iterations: 5 },
    stop: { reason: 'blocked', at: at(40), exitCode: 1 },
  };
  await fixture.write(`${RUN}/state.json`, `${JSON.stringify(state, null, 2)}\n`);
  await fixture.write(
    `${RUN}/events.jsonl`,
    [
      record(0, {
        type: 'iteration-started',
        iteration: 1,
        maxIterations: 9,
        headBefore: 'abc1234',
        storyId: 'US-001',
        title: 'Add the reports page',
        attempt: 1,
        maxAttempts: 3,
      }),
      record(4, {
        type: 'story-passed',
        iteration: 1,
        storyId: 'US-001',
        title: 'Add the reports page',
        attempt: 1,
        commits: [{ sha: 'abc1234def', subject: 'feat: US-001 - Add the reports page' }],
        durationMs: 185_000,
        costUsd: 0.42,
      }),
      record(5, {
        type: 'question-asked',
        iteration: 2,
        storyId: 'US-002',
        questionId: 'US-002',
        question: QUESTION,
      }),
      record(40, {
        type: 'run-finished',
        exitCode: 1,
        reason: 'blocked',
        message: 'stopped: a question waits for an answer',
        passed: 1,
        total: 4,
        parked: ['US-003'],
        costUsd: 1.78,
        iterations: 5,
      }),
    ].join(''),
  );
  return fixture;
}

describe('ralph serve in a browser', () => {
  it('lists the stories, shows the question, records the answer sent from the page, and follows the log', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(serve.url);
    // The token went into a cookie; the address bar no longer shows it.
    expect(page.url()).toBe(`${serve.origin}/`);

    const rows = page.locator('table.items tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await Promise.all((await rows.all()).map((tr) => tr.getAttribute('data-id')))).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
    const row = (id: string) => page.locator(`tr[data-id="${id}"]`);
    expect(await row('US-001').getAttribute('class')).toContain('state-done');
    expect(await row('US-001').locator('.time').textContent()).toBe('3m 05s');
    expect(await row('US-001').locator('.cost').textContent()).toBe('$0.42');
    expect(await row('US-002').getAttribute('class')).toContain('state-waiting');
    expect(await row('US-003').getAttribute('class')).toContain('state-parked');
    expect(await row('US-003').locator('.attempts').textContent()).toBe('3');
    expect(await row('US-003').locator('.reason').textContent()).toBe(
      'parked: the check `npm test` failed (exit 1)',
    );
    expect(await row('US-004').getAttribute('class')).toContain('state-todo');

    // The XSS attempt in a title is text: no image element, no script ran.
    expect(await row('US-002').locator('.item-title').textContent()).toBe(XSS_TITLE);
    expect(await page.locator('img, b, i').count()).toBe(0);
    // Evaluated in the page, as text: the tests are compiled without the DOM's types.
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined');

    await expect.poll(() => page.locator('.question-text').textContent()).toBe(QUESTION);
    expect(await page.locator('.asker').textContent()).toMatch(/^US-002 asks \((?!US-002)/);

    const lines = page.locator('ol.log li');
    await expect.poll(() => lines.count()).toBe(4);
    expect(await lines.last().textContent()).toContain(
      'stopped: a question waits for an answer — 1/4 passed',
    );
    expect(await lines.nth(1).textContent()).toContain('✓ US-001 passed');
    expect(await lines.locator('time').count()).toBe(4);

    if (process.env.RALPH_WRITE_SCREENSHOT === '1') {
      await page.screenshot({
        path: fileURLToPath(new URL('../../docs/serve.png', import.meta.url)),
        fullPage: true,
      });
    }

    await page.getByLabel('Answer').fill('The replica; never touch the primary.');
    await page.getByRole('button', { name: 'Send' }).click();
    // The card turns into the answer as soon as the server has recorded it.
    await expect.poll(() => page.locator('.answer-text').count()).toBe(1);
    const recorded = (await readFile(join(repo.dir, RUN, 'answers.jsonl'), 'utf8')).trim().split('\n');
    expect(recorded.map((line) => JSON.parse(line))).toEqual([
      {
        questionId: 'US-002',
        askedAt: at(5),
        answer: 'The replica; never touch the primary.',
        at: expect.any(String),
      },
    ]);
    await expect
      .poll(() => page.locator('.answer-text').textContent())
      .toBe('Answered: The replica; never touch the primary.');
    await expect.poll(() => page.getByLabel('Answer').count()).toBe(0);

    // A line another process appends shows without a reload.
    await appendFile(
      join(repo.dir, RUN, 'events.jsonl'),
      record(41, {
        type: 'iteration-started',
        iteration: 6,
        maxIterations: 9,
        headBefore: 'abc1234',
        storyId: 'US-004',
        title: 'Email the report',
        attempt: 1,
        maxAttempts: 3,
      }),
    );
    await expect
      .poll(() => lines.last().textContent(), { timeout: 10_000 })
      .toContain('iteration 6/9: US-004 Email the report (attempt 1/3)');
    expect(errors).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, the question and its Send button in reach', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    browser = await launchBrowser({ width: 390, height: 844 });
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(serve.url);
    await expect.poll(() => page.locator('table.items tbody tr').count()).toBe(4);
    const widths = (await page.evaluate(
      '({ page: document.documentElement.scrollWidth, screen: window.innerWidth })',
    )) as { page: number; screen: number };
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
    expect(send).not.toBeNull();
    expect((send?.x ?? 0) + (send?.width ?? 0)).toBeLessThanOrEqual(390);
  });
});
