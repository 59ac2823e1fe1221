/**
 * `ralph run --source github` end to end: the built CLI reads a label's open
 * issues from a scripted GitHub REST server on 127.0.0.1 (via
 * GITHUB_API_URL), drives the real Claude Code binary against the scripted
 * model server, and writes the run back to the issues as labels and
 * comments, never into an issue's body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type GithubServer, type SeedIssue, startGithubServer } from '../support/github-server.js';
import { createLoopProject, featSubjects, type LoopProject } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { fail, implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const TOKEN = 'ghp_scripted_token';
const BRANCH = 'ralph/github-ralph';

let project: LoopProject | undefined;
let github: GithubServer | undefined;
let origin = '';
afterEach(async () => {
  await project?.cleanup();
  await github?.close();
  if (origin) await removeTempDir(origin);
  project = undefined;
  github = undefined;
  origin = '';
});

const env = (server: GithubServer) => ({ GITHUB_API_URL: server.url, GH_TOKEN: TOKEN });

const recordsOf = (stdout: string): Array<Record<string, unknown>> =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const THREE: SeedIssue[] = [
  { number: 1, title: 'Add greeting', body: 'Say hello.\n\n- [ ] greet.txt says hello\n', labels: ['ralph'] },
  {
    number: 2,
    title: 'Add farewell',
    // Critical, so without its dependency it would run first.
    body: 'Depends on #1\n\n- [ ] bye.txt says bye\n- [ ] nothing else changes\n',
    labels: ['ralph', 'priority: critical'],
  },
  { number: 3, title: 'Add shout', body: '- [ ] shout.txt', labels: ['ralph', 'priority:low'] },
  // A pull request carrying the label: GitHub lists it among the issues, ralph does not.
  { number: 4, title: 'Some pull request', labels: ['ralph'], pullRequest: true },
  { number: 5, title: 'Not for ralph', body: '- [ ] anything' },
];

describe('ralph run --source github with Claude Code', () => {
  it('runs three labelled issues in dependency order, labels and comments each, opens a PR closing them; a second run finds nothing to do', async () => {
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: THREE,
      pageSize: 2,
    });
    project = await createLoopProject(
      {},
      {
        'GH-1': [implement('GH-1', 'Add greeting', 'greet.txt', 'hello\n')],
        'GH-2': [implement('GH-2', 'Add farewell', 'bye.txt', 'bye\n')],
        'GH-3': [implement('GH-3', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    origin = await makeTempDir('origin');
    await project.repo.git('init', '-q', '--bare', origin);
    await project.repo.git('remote', 'add', 'origin', origin);
    // GitHub out for a moment while GH-2's pass is commented, and a rate limit on the list after it.
    github.failNext(
      { on: 'POST /repos/acme/app/issues/2/comments', status: 502, message: 'Server Error' },
      {
        on: 'GET /repos/acme/app/issues',
        // Pages of 2: the opening read takes two calls, each read of the loop two more.
        nth: 5,
        status: 403,
        message: 'API rate limit exceeded for user ID 1.',
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 1),
        },
      },
    );

    const result = await project.run(['--source', 'github', '--repo', 'acme/app', '--json', '--pr'], {
      env: env(github),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);

    // #2 depends on #1: #1 first although #2 is critical; #3 (low) last.
    const feats = (await project.repo.git('log', '--format=%s', BRANCH))
      .split('\n')
      .filter((s) => s.startsWith('feat:'));
    expect(feats.reverse()).toEqual([
      'feat: GH-1 - Add greeting',
      'feat: GH-2 - Add farewell',
      'feat: GH-3 - Add shout',
    ]);
    expect(project.stories.prompts('GH-2')[0]).toContain('bye.txt says bye');

    for (const n of [1, 2, 3]) {
      expect(github.labelsOf(n)).toContain('ralph:done');
      expect(github.labelsOf(n)).not.toContain('ralph:in-progress');
      const sha = await project.repo.git('log', '--format=%h', '-1', `--grep=^feat: GH-${n} `, BRANCH);
      const comments = github.comments.filter((c) => c.issue === n).map((c) => c.body);
      expect(comments).toHaveLength(1);
      expect(comments[0]).toContain(`ralph verified GH-${n} on \`${BRANCH}\``);
      expect(comments[0]).toContain(sha);
    }
    // Neither the pull request nor the unlabelled issue was touched.
    expect(github.labelsOf(4)).toEqual(['ralph']);
    expect(github.labelsOf(5)).toEqual([]);
    expect(github.comments.filter((c) => c.issue > 3)).toEqual([]);
    // Written back as labels and comments only: no call edits an issue.
    expect(github.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    expect(github.repoLabels()).toEqual(
      expect.arrayContaining(['ralph:in-progress', 'ralph:done', 'ralph:parked']),
    );

    const events = recordsOf(result.stdout);
    const waits = events.filter((e) => e.type === 'waiting');
    expect(waits.map((w) => w.reason)).toEqual(expect.arrayContaining(['outage', 'rate-limit']));
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);

    expect(github.pulls).toHaveLength(1);
    const pull = github.pulls[0];
    expect(pull?.head).toBe(BRANCH);
    expect(pull?.base).toBe('main');
    expect(pull?.body).toMatch(/^Closes #1$/m);
    expect(pull?.body).toMatch(/^Closes #2$/m);
    expect(pull?.body).toMatch(/^Closes #3$/m);
    expect(pull?.body).not.toMatch(/#4|#5/);
    expect(events.find((e) => e.type === 'pr-created')?.url).toBe(pull?.html_url);

    // The progress file is committed on the run's branch, not under .ralph/prds/.
    const progress = await project.repo.git('show', `${BRANCH}:.ralph/github/ralph/progress.md`);
    expect(progress.match(/ - GH-\d: /g)).toHaveLength(3);

    const modelCalls = project.server.modelCalls().length;
    const again = await project.run(['--source', 'github', '--repo', 'acme/app', '--headless'], {
      env: env(github),
    });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/0 stories left[\s\S]*3\/3 passed, 0 iterations/);
    expect(project.server.modelCalls().length).toBe(modelCalls);
    expect(github.comments).toHaveLength(3);
  });

  it('parks an issue after its retries: ralph:parked and a comment with the reason; independent issues go on (exit 1)', async () => {
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: [
        { number: 7, title: 'Impossible', body: '- [ ] the API exists', labels: ['ralph'] },
        { number: 8, title: 'Independent', body: '- [ ] ind.txt', labels: ['ralph'] },
      ],
    });
    project = await createLoopProject(
      {},
      {
        'GH-7': [fail('GH-7', 'the payments API does not exist')],
        'GH-8': [implement('GH-8', 'Independent', 'ind.txt', 'ok\n')],
      },
    );
    const result = await project.run(
      ['--source', 'github', '--repo', 'acme/app', '--headless', '--no-worktree', '--max-retries', '2'],
      { env: env(github) },
    );
    expect(result.exitCode).toBe(1);
    expect(project.stories.prompts('GH-7')).toHaveLength(2);
    expect(github.labelsOf(7)).toContain('ralph:parked');
    expect(github.labelsOf(7)).not.toContain('ralph:in-progress');
    expect(github.labelsOf(7)).not.toContain('ralph:done');
    const parked = github.comments.filter((c) => c.issue === 7).map((c) => c.body);
    expect(parked).toHaveLength(1);
    expect(parked[0]).toContain('ralph parked GH-7 after 2 attempts');
    expect(parked[0]).toContain('the payments API does not exist');
    expect(github.labelsOf(8)).toContain('ralph:done');
    // In place: the branch checked out is the one the comment names.
    expect(github.comments.find((c) => c.issue === 8)?.body).toContain('on `main`');
  });

  it('posts a question as a comment on its issue and ends with exit 1 listing it; answered, the next run lands it', async () => {
    const question = 'Should greetings be stored in PostgreSQL or in SQLite?';
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: [
        { number: 11, title: 'Store greetings', body: '- [ ] greetings are stored', labels: ['ralph'] },
        { number: 12, title: 'Add greeting', body: '- [ ] greet.txt', labels: ['ralph'] },
      ],
    });
    project = await createLoopProject(
      {},
      {
        'GH-11': [
          [
            { tool: 'Write', input: { file_path: 'half-done.txt', content: 'not sure yet\n' } },
            { text: `I cannot choose the database myself.\n<ralph>ASK GH-11: ${question}</ralph>` },
          ],
          implement('GH-11', 'Store greetings', 'store.txt', 'sqlite\n'),
        ],
        'GH-12': [implement('GH-12', 'Add greeting', 'greet.txt', 'hello\n')],
      },
    );
    const args = ['--source', 'github', '--repo', 'acme/app', '--headless', '--no-worktree'];
    const first = await project.run(args, { env: env(github) });
    expect(first.exitCode).toBe(1);
    expect(first.stdout).toContain(question);
    expect(first.stdout).toContain('answer with: ralph answer github-ralph GH-11 "<your answer>"');
    expect(await featSubjects(project.repo)).toEqual(['feat: GH-12 - Add greeting']);

    // The question, on its issue, with the command that answers it; the issue is neither in progress nor parked.
    const asked = github.comments.filter((c) => c.issue === 11).map((c) => c.body);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('The agent working on GH-11 asks:');
    expect(asked[0]).toContain(question);
    expect(asked[0]).toContain('ralph answer github-ralph GH-11 "<answer>"');
    expect(github.labelsOf(11)).toEqual(['ralph']);
    expect(github.labelsOf(12)).toContain('ralph:done');

    const answered = await runRalph(['answer', 'github-ralph', 'GH-11', 'SQLite, in data/greetings.db'], {
      cwd: project.repo.dir,
    });
    expect(answered.exitCode).toBe(0);
    const second = await project.run(args, { env: env(github) });
    expect(second.exitCode).toBe(0);
    expect(project.stories.prompts('GH-11').at(-1)).toContain(
      `You asked: ${question}\nThe answer is: SQLite, in data/greetings.db`,
    );
    expect(await featSubjects(project.repo)).toEqual([
      'feat: GH-12 - Add greeting',
      'feat: GH-11 - Store greetings',
    ]);
    const sha = await project.repo.git('log', '--format=%h', '-1', '--grep=^feat: GH-11 ');
    const comments = github.comments.filter((c) => c.issue === 11).map((c) => c.body);
    expect(comments).toHaveLength(2);
    expect(comments[1]).toContain('ralph verified GH-11 on `main`');
    expect(comments[1]).toContain(sha);
    expect(github.labelsOf(11)).toContain('ralph:done');
    expect(github.labelsOf(11)).not.toContain('ralph:in-progress');
    // Neither run wrote the question, or anything else, into an issue's body.
    expect(github.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  }, 240_000);

  it('stops with exit 2, before anything changes, when the token may not do what the run needs', async () => {
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: THREE,
      permission: 'none',
    });
    project = await createLoopProject({}, {});
    const before = await project.repo.git('status', '--porcelain');
    const refused = await project.run(['--source', 'github', '--repo', 'acme/app', '--headless'], {
      env: env(github),
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /the GitHub token may not list the issues labelled "ralph" in acme\/app: it needs Issues: read/,
    );
    expect(refused.stderr).toContain('Resource not accessible by personal access token');
    expect(await project.repo.git('status', '--porcelain')).toBe(before);
    expect(await project.repo.git('branch', '--list', BRANCH)).toBe('');
    expect(project.server.modelCalls()).toHaveLength(0);
    await github.close();

    // A token that may read but not write: refused at the labels, before the first attempt.
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: THREE,
      permission: 'read',
    });
    const readOnly = await project.run(['--source', 'github', '--repo', 'acme/app', '--headless'], {
      env: env(github),
    });
    expect(readOnly.exitCode).toBe(2);
    expect(readOnly.stderr).toMatch(/may not create its labels in acme\/app: it needs Issues: write/);
    expect(readOnly.stderr).toContain('GitHub accepts: issues=write');
    expect(project.server.modelCalls()).toHaveLength(0);
    expect(await project.repo.git('branch', '--list', BRANCH)).toBe('');
  });
});
