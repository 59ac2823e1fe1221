/**
 * `ralph serve` over plain HTTP: its options, and who gets in. Every request
 * without the right token is refused with 401; the token moves to an
 * HttpOnly cookie; a request that changes something needs the page's CSRF
 * token, JSON, and the page's own origin, and nothing is recorded otherwise.
 */
import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goalSpecFromText } from '../../src/goal/goal-spec.js';
import { formatGoalProgress } from '../../src/goal/progress-file.js';
import { newGoalProgress } from '../../src/goal/progress-update.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { RALPH_BIN, runRalph } from '../support/ralph-cli.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let repo: GitFixture | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  await repo?.cleanup();
  serve = repo = undefined;
});

const PRD = JSON.stringify({
  project: 'Demo',
  userStories: [
    { id: 'US-001', title: 'Add greeting', acceptanceCriteria: ['a'], priority: 1, passes: false },
  ],
});
const ASKED = `${JSON.stringify({
  at: '2026-01-12T22:05:00.000Z',
  run: 'demo',
  type: 'question-asked',
  iteration: 1,
  storyId: 'US-001',
  questionId: 'US-001',
  question: 'Which greeting?',
})}\n`;

async function project(): Promise<GitFixture> {
  return createGitFixture({
    files: { '.ralph/prds/demo/prd.json': PRD, '.ralph/runs/demo/events.jsonl': ASKED },
  });
}

const answers = (dir: string) => join(dir, '.ralph/runs/demo/answers.jsonl');

describe('ralph serve: options', () => {
  it.each([
    [['--port', '70000'], /port number from 0 to 65535/],
    [['--port', 'http'], /port number from 0 to 65535/],
    [['--port', '-1'], /port number from 0 to 65535|unknown option/],
    [['--bogus'], /unknown option/],
  ])('%j is a usage error: exit 2', async (args, message) => {
    repo = await project();
    const result = await runRalph(['serve', ...args], { cwd: repo.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('a RALPH_SERVE_TOKEN too weak to guard the page is refused with exit 2', async () => {
    repo = await project();
    const result = await runRalph(['serve', '--port', '0'], {
      cwd: repo.dir,
      env: { ...process.env, RALPH_SERVE_TOKEN: 'secret' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/RALPH_SERVE_TOKEN cannot be used: it is shorter than 16 characters/);
  });

  it('a port in use is a clear error, exit 2', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    const port = new URL(serve.url).port;
    const result = await runRalph(['serve', '--port', port], { cwd: repo.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`port ${port} is in use`));
  });

  it('binds 127.0.0.1 by default, prints the URL with a random token, and stops on Ctrl-C with exit 0', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    expect(serve.stderr()).toBe('');
    const other = await startServe(repo.dir);
    expect(other.token).not.toBe(serve.token);
    expect(await other.stop()).toBe(0);
  });

  it('--host other than loopback warns, and RALPH_SERVE_TOKEN sets the token', async () => {
    repo = await project();
    const token = 'a-token-set-by-the-user-0123456789';
    serve = await startServe(repo.dir, {
      args: ['--port', '0', '--host', '0.0.0.0'],
      env: { ...process.env, RALPH_SERVE_TOKEN: token },
    });
    expect(serve.token).toBe(token);
    expect(serve.stderr()).toMatch(/^ralph: serving on 0\.0\.0\.0, not only on this machine/);
    const response = await fetch(`${serve.origin}/api/project`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('ralph serve: the runs', () => {
  it('lists PRDs, goal runs with their steps, and runs of task files elsewhere', async () => {
    repo = await project();
    const now = new Date('2026-01-12T22:00:00.000Z');
    const goal = newGoalProgress(
      goalSpecFromText('Make the CLI start fast\nunder 100 ms', { name: 'fast' }),
      now,
    );
    const step = (id: string, prompt: string, status: 'pending' | 'completed') => ({
      id,
      prompt,
      status,
      addedAt: now.toISOString(),
      addedInIteration: 1,
    });
    await repo.write(
      '.ralph/runs/fast/PROGRESS.yaml',
      formatGoalProgress({
        ...goal,
        status: 'needs-human',
        dynamicSteps: [
          step('step-1', 'Measure the start-up', 'completed'),
          step('step-2', 'Load lazily', 'pending'),
        ],
        humanNeeded: { reason: 'Which budget?', details: '', iteration: 2, at: now.toISOString() },
        stop: { reason: 'needs-human', exitCode: 1, at: now.toISOString() },
      }),
    );
    await repo.write('tasks/prd.json', PRD.replace('Add greeting', 'Add farewell'));
    await repo.write(
      '.ralph/runs/tasks-prd/state.json',
      JSON.stringify({
        version: 1,
        name: 'tasks-prd',
        taskPath: join(repo.dir, 'tasks/prd.json'),
        startedAt: now.toISOString(),
        updatedAt: now.toISOString(),
        iteration: 1,
        current: null,
        stories: {},
        totals: { costUsd: 0.25, inputTokens: 0, outputTokens: 0, iterations: 1 },
      }),
    );
    serve = await startServe(repo.dir);
    const view = (await (
      await fetch(`${serve.origin}/api/project`, { headers: { authorization: `Bearer ${serve.token}` } })
    ).json()) as {
      runs: {
        name: string;
        kind: string;
        title: string;
        phase: string;
        detail: string;
        items: { id: string; title: string; state: string }[];
      }[];
    };
    expect(view.runs.map((r) => [r.name, r.kind, r.title, r.phase])).toEqual([
      ['demo', 'prd', 'Demo', 'idle'],
      ['fast', 'goal', 'Make the CLI start fast', 'needs-human'],
      ['tasks-prd', 'prd', 'Demo', 'idle'],
    ]);
    expect(view.runs[1]?.detail).toBe('needs a person: Which budget?');
    expect(view.runs[1]?.items.map((i) => [i.id, i.state])).toEqual([
      ['step-1', 'done'],
      ['step-2', 'todo'],
    ]);
    expect(view.runs[2]?.items.map((i) => [i.id, i.title])).toEqual([['US-001', 'Add farewell']]);
  });
});

describe('ralph serve: the bundle', () => {
  it('serves the page from the bundled CLI alone, with no node_modules and no sources beside it', async () => {
    repo = await project();
    const alone = await makeTempDir('bundle');
    try {
      await cp(dirname(RALPH_BIN), join(alone, 'cli'), { recursive: true });
      serve = await startServe(repo.dir, { bin: join(alone, 'cli', 'main.js') });
      const auth = { authorization: `Bearer ${serve.token}` };
      const html = await (await fetch(`${serve.origin}/`, { headers: auth })).text();
      expect(html).toContain('<script src="/page.js" defer></script>');
      const script = await fetch(`${serve.origin}/page.js`, { headers: auth });
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await script.text()).length).toBeGreaterThan(2000);
      expect((await fetch(`${serve.origin}/page.css`, { headers: auth })).status).toBe(200);
    } finally {
      await serve?.stop();
      await removeTempDir(alone);
    }
  });
});

describe('ralph serve: access', () => {
  it('answers 401 to every request without the right token', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    const { origin } = serve;
    const refused = [
      fetch(`${origin}/`),
      fetch(`${origin}/?token=wrong`),
      fetch(`${origin}/?token=${serve.token}x`),
      fetch(`${origin}/page.js`),
      fetch(`${origin}/api/project`),
      fetch(`${origin}/api/stream?run=demo`),
      fetch(`${origin}/api/project`, { headers: { authorization: 'Bearer wrong' } }),
      fetch(`${origin}/api/project`, { headers: { cookie: `ralph_serve_${new URL(origin).port}=wrong` } }),
      fetch(`${origin}/nothing-here`),
      fetch(`${origin}/api/runs/demo/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ questionId: 'US-001', text: 'Hello' }),
      }),
    ];
    for (const response of await Promise.all(refused)) {
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain(serve.token);
    }
    expect(existsSync(answers(repo.dir))).toBe(false);
  });

  it('moves the token from the URL to an HttpOnly cookie, with a CSP on every response', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    const first = await fetch(serve.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const jar = cookie.split(';')[0] ?? '';
    const page = await fetch(`${serve.origin}/`, { headers: { cookie: jar } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toContain(serve.token);
    expect(html).toMatch(/<meta name="ralph-csrf" content="[0-9a-f]{64}"/);
  });

  it('refuses a state-changing request without the CSRF token, as JSON from the page, or by GET', async () => {
    repo = await project();
    serve = await startServe(repo.dir);
    const auth = { authorization: `Bearer ${serve.token}` };
    const html = await (await fetch(`${serve.origin}/`, { headers: auth })).text();
    const csrf = /content="([0-9a-f]{64})"/.exec(html)?.[1] ?? '';
    const body = JSON.stringify({ questionId: 'US-001', text: 'Hello' });
    const url = `${serve.origin}/api/runs/demo/answer`;
    const json = { 'content-type': 'application/json' };
    const tries: [Record<string, string>, string, number][] = [
      [{ ...auth, ...json }, body, 403],
      [{ ...auth, ...json, 'x-ralph-csrf': 'f'.repeat(64) }, body, 403],
      [{ ...auth, 'content-type': 'text/plain', 'x-ralph-csrf': csrf }, body, 403],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf, origin: 'http://evil.example' }, body, 403],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf, 'sec-fetch-site': 'cross-site' }, body, 403],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf }, 'not json', 400],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf }, JSON.stringify({ questionId: 'US-001' }), 400],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf }, JSON.stringify({ questionId: 'US-009', text: 'Hi' }), 409],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf }, JSON.stringify({ questionId: 'US-001', text: '  ' }), 409],
      [{ ...auth, ...json, 'x-ralph-csrf': csrf }, 'x'.repeat(300_000), 413],
    ];
    for (const [headers, sent, status] of tries) {
      const response = await fetch(url, { method: 'POST', headers, body: sent });
      expect({ headers, status: response.status }).toEqual({ headers, status });
    }
    expect((await fetch(url, { headers: auth })).status).toBe(405);
    expect(existsSync(answers(repo.dir))).toBe(false);

    const control = await fetch(`${serve.origin}/api/runs/demo/control`, {
      method: 'POST',
      headers: { ...auth, ...json, 'x-ralph-csrf': csrf },
      body: JSON.stringify({ request: 'pause' }),
    });
    expect(control.status).toBe(409);
    expect(await control.json()).toEqual({ message: 'demo is not running' });
    expect(existsSync(join(repo.dir, '.ralph/runs/demo/control.json'))).toBe(false);

    const answered = await fetch(url, {
      method: 'POST',
      headers: { ...auth, ...json, 'x-ralph-csrf': csrf },
      body,
    });
    expect(answered.status).toBe(200);
    expect(existsSync(answers(repo.dir))).toBe(true);
  });
});
