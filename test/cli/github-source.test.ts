/**
 * The read-only commands over GitHub issues (`status`, `list`, `validate`,
 * `plan`, `run --dry-run`) with the built CLI against the scripted GitHub
 * REST server; and the write-back follower fed the events of a question.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openEventSinks } from '../../src/app/event-sinks.js';
import { githubWriteBack } from '../../src/app/github-write-back.js';
import { createGithubClient, type GithubWait } from '../../src/github/client.js';
import { issuesApi } from '../../src/github/issues-api.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { type GithubServer, type SeedIssue, startGithubServer } from '../support/github-server.js';
import { runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const TOKEN = 'ghp_scripted_token';
let repo: GitFixture | undefined;
let github: GithubServer | undefined;
let dir = '';
afterEach(async () => {
  await repo?.cleanup();
  await github?.close();
  if (dir) await removeTempDir(dir);
  repo = undefined;
  github = undefined;
  dir = '';
});

const ISSUES: SeedIssue[] = [
  { number: 1, title: 'Add greeting', body: '- [ ] greet.txt says hello', labels: ['ralph', 'ralph:done'] },
  { number: 2, title: 'Add farewell', body: 'Blocked by #1\n- [ ] bye.txt', labels: ['ralph'] },
  {
    number: 3,
    title: 'Add shout',
    body: 'Depends on #2\n- [ ] shout.txt',
    labels: ['ralph', 'priority:critical'],
  },
  { number: 4, title: 'Other label', labels: ['backlog'] },
];

async function setUp(
  options: { issues?: SeedIssue[]; permission?: 'read' | 'none'; basePath?: string } = {},
): Promise<{ run: (args: string[], env?: NodeJS.ProcessEnv) => ReturnType<typeof runRalph> }> {
  github = await startGithubServer({
    owner: 'acme',
    repo: 'app',
    token: TOKEN,
    issues: options.issues ?? ISSUES,
    pageSize: 1,
    ...(options.permission ? { permission: options.permission } : {}),
    ...(options.basePath ? { basePath: options.basePath } : {}),
  });
  repo = await createGitFixture();
  const server = github;
  const base = {
    PATH: process.env.PATH ?? '',
    GITHUB_API_URL: server.url + (options.basePath ?? ''),
    GH_TOKEN: TOKEN,
  };
  return {
    run: (args, env = {}) =>
      runRalph(args, { cwd: (repo as GitFixture).dir, env: { ...base, ...env }, timeoutMs: 60_000 }),
  };
}

describe('read-only commands with --source github', () => {
  it('status lists the issues as stories with their state and the next one; --json names the source', async () => {
    const { run } = await setUp();
    const text = await run(['status', '--source', 'github', '--repo', 'acme/app']);
    expect(text.stderr).toBe('');
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('github-ralph: acme/app (github:acme/app?label=ralph)');
    expect(text.stdout).toMatch(/✓ GH-1 {2}Add greeting/);
    expect(text.stdout).toContain('1/3 done · next: GH-2 Add farewell');
    const json = JSON.parse(
      (await run(['status', '--source', 'github', '--repo', 'acme/app', '--json'])).stdout,
    );
    expect(json).toMatchObject({
      name: 'github-ralph',
      format: 'github',
      done: 1,
      total: 3,
      next: { id: 'GH-2' },
    });
    expect(json.stories.map((s: { id: string; dependsOn: string[] }) => [s.id, s.dependsOn])).toEqual([
      ['GH-1', []],
      ['GH-2', ['GH-1']],
      ['GH-3', ['GH-2']],
    ]);
    // One page per issue: the whole list was read, page after page.
    expect(github?.calls.filter((c) => c.path === '/repos/acme/app/issues').length).toBeGreaterThanOrEqual(4);
  });

  it('list adds the issues, validate checks them, run --dry-run prints the next story’s prompt', async () => {
    const { run } = await setUp();
    const list = await run(['list', '--source', 'github', '--repo', 'acme/app']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/github-ralph\s+1\/3\s+acme\/app/);
    const valid = await run(['validate', '--source', 'github', '--repo', 'acme/app']);
    expect(valid.exitCode).toBe(0);
    expect(valid.stdout).toContain('github:acme/app?label=ralph: valid, 3 stories');
    const dry = await run(['run', '--source', 'github', '--repo', 'acme/app', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain('## Your story: GH-2 - Add farewell');
    expect(dry.stdout).toContain('bye.txt');
    // Nothing was written to GitHub by any of them.
    expect(github?.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('plan gives the issues ready now on origin, as a job matrix takes them', async () => {
    const { run } = await setUp();
    dir = await makeTempDir('origin');
    await repo?.git('init', '-q', '--bare', dir);
    await repo?.git('remote', 'add', 'origin', dir);
    await repo?.git('push', '-q', 'origin', 'main');
    const plan = await run(['plan', '--source', 'github', '--repo', 'acme/app', '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      prd: 'github-ralph',
      branch: 'ralph/github-ralph',
      ids: ['GH-2'],
    });
  });

  it('validate refuses a dependency cycle between issues (exit 2)', async () => {
    const { run } = await setUp({
      issues: [
        { number: 1, title: 'A', body: 'Depends on #2', labels: ['ralph'] },
        { number: 2, title: 'B', body: 'Blocked by #1', labels: ['ralph'] },
      ],
    });
    const result = await run(['validate', '--source', 'github', '--repo', 'acme/app']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cycle/i);
  });

  it('finds the repository from an origin remote, and works against an Enterprise-style API path', async () => {
    const { run } = await setUp({ basePath: '/api/v3' });
    await repo?.git('remote', 'add', 'origin', 'git@ghe.corp.example:acme/app.git');
    const result = await run(['status', '--source', 'github']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('acme/app');
    // The remote is on an Enterprise host: without GITHUB_API_URL ralph will not ask github.com.
    const unset = await run(['status', '--source', 'github'], { GITHUB_API_URL: '' });
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toContain('GITHUB_API_URL=https://ghe.corp.example/api/v3');
  });

  it('exit 2 with the reason for a bad flag, no repository, no token, a wrong token, or no rights', async () => {
    const { run } = await setUp();
    const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [['status', '--source', 'jira'], {}, /argument 'jira' is invalid/],
      [['status', '--label', 'x'], {}, /--label and --repo go with --source github/],
      [['status', 'main', '--source', 'github', '--repo', 'acme/app'], {}, /reads issues, not "main"/],
      [['status', '--source', 'github', '--repo', '../etc'], {}, /expected OWNER\/REPO/],
      [['status', '--source', 'github'], {}, /no origin remote[\s\S]*--repo OWNER\/REPO/],
      // No token anywhere: the environment has none and PATH has no gh logged in.
      [
        ['status', '--source', 'github', '--repo', 'acme/app'],
        { GH_TOKEN: '', PATH: '/nonexistent' },
        /no GitHub token/,
      ],
      [
        ['status', '--source', 'github', '--repo', 'acme/app'],
        { GH_TOKEN: 'wrong' },
        /did not accept the token from GH_TOKEN: Bad credentials/,
      ],
      [['status', '--source', 'github', '--repo', 'acme/other'], {}, /no repository acme\/other/],
    ];
    for (const [args, env, message] of cases) {
      const result = await run(args, env);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('waits out an outage of the API while reading, and says so', async () => {
    const { run } = await setUp();
    github?.failNext({ status: 503, message: 'Service Unavailable' }, { status: 0, message: '', drop: true });
    const result = await run(['status', '--source', 'github', '--repo', 'acme/app']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/waiting 1 s: GitHub's API did not answer \(Service Unavailable/);
    expect(result.stderr).toMatch(/waiting 2 s: GitHub's API did not answer/);
    expect(result.stdout).toContain('1/3 done');
  });
});

describe('the write-back follower', () => {
  it("posts a question as a comment (quoted, with the command that answers it) and takes the issue's in-progress label off", async () => {
    github = await startGithubServer({ owner: 'acme', repo: 'app', token: TOKEN, issues: ISSUES });
    dir = await makeTempDir('runs');
    const waits: GithubWait[] = [];
    const api = issuesApi(
      createGithubClient({
        apiUrl: github.url,
        token: TOKEN,
        repo: { owner: 'acme', repo: 'app' },
        onWait: (w) => waits.push(w),
      }),
    );
    const failed: string[] = [];
    const sinks = openEventSinks({
      run: 'github-ralph',
      runDir: dir,
      followers: [
        githubWriteBack({
          api,
          run: 'github-ralph',
          runDir: dir,
          label: 'ralph',
          failed: (m) => failed.push(m),
        }),
      ],
    });
    sinks.emit({
      type: 'iteration-started',
      iteration: 1,
      maxIterations: 5,
      headBefore: 'abc',
      storyId: 'GH-2',
      attempt: 1,
    });
    sinks.emit({
      type: 'question-asked',
      iteration: 1,
      storyId: 'GH-2',
      questionId: 'q1',
      question: 'Should bye.txt say "bye" or "goodbye"? @everyone',
    });
    await sinks.close();
    expect(failed).toEqual([]);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.issue).toBe(2);
    expect(github.comments[0]?.body).toContain(
      '```text\nShould bye.txt say "bye" or "goodbye"? @everyone\n```',
    );
    expect(github.comments[0]?.body).toContain('ralph answer github-ralph GH-2 "<answer>"');
    expect(github.labelsOf(2)).toEqual(['ralph']);
    // In progress first, then taken off when the story waits for its answer.
    const labelCalls = github.calls.filter((c) => c.path.startsWith('/repos/acme/app/issues/2/labels'));
    expect(labelCalls.map((c) => c.method)).toEqual(['POST', 'DELETE', 'DELETE']);
  });
});
