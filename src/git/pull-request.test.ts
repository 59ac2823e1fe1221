import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGh, FAKE_PR_URL, type FakeGh } from '../../test/support/fake-gh.js';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { createPullRequest, parsePullRequestUrl, pullRequestBody, pullRequestTitle } from './pull-request.js';

describe('pull request text', () => {
  it('titles the PR after the PRD', () => {
    expect(pullRequestTitle('auth', 'Login system')).toBe('feat(auth): Login system');
  });

  it('lists every story with attempts and cost, escaping table characters', () => {
    const body = pullRequestBody({
      name: 'auth',
      project: 'Login',
      stories: [
        { id: 'US-001', title: 'Add a | pipe', attempts: 1, costUsd: 0.1234 },
        { id: 'US-002', title: 'Second', attempts: 3, costUsd: 1 },
      ],
    });
    expect(body).toContain('| US-001 | Add a \\| pipe | 1 | $0.12 |');
    expect(body).toContain('| US-002 | Second | 3 | $1.00 |');
    expect(body).toContain('2 stories, 4 attempts, $1.12.');
    expect(body).toContain('**Login** (`auth`)');
  });

  it('lists a goal run’s steps with the iterations that worked on them', () => {
    const body = pullRequestBody({
      name: 'auth',
      project: 'Build auth',
      stories: [{ id: 'step-0', title: 'Add login', attempts: 2, costUsd: 0.5 }],
      unit: 'step',
    });
    expect(body).toMatch(/^Goal steps completed by ralph for \*\*Build auth\*\* \(`auth`\)/);
    expect(body).toContain('| Step | Task | Iterations | Cost |');
    expect(body).toContain('| step-0 | Add login | 2 | $0.50 |');
    expect(body).toContain('1 step, 2 iterations, $0.50.');
  });

  it('finds the URL gh prints, new or existing', () => {
    expect(parsePullRequestUrl('Creating pull request...\nhttps://github.com/o/r/pull/7\n')).toBe(
      'https://github.com/o/r/pull/7',
    );
    expect(
      parsePullRequestUrl('a pull request for branch "x" already exists:\nhttps://ghe.local/o/r/pull/12'),
    ).toBe('https://ghe.local/o/r/pull/12');
    expect(parsePullRequestUrl('nothing here')).toBeNull();
  });
});

describe('createPullRequest', () => {
  let repo: TempRepo | undefined;
  let gh: FakeGh | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    await gh?.cleanup();
    repo = undefined;
    gh = undefined;
  });

  const options = (cwd: string, env: NodeJS.ProcessEnv) => ({
    cwd,
    title: 'feat(x): $(touch pwned) `id`',
    body: 'body; rm -rf /\n"quoted"',
    head: 'ralph/x',
    base: 'main',
    env,
  });

  it('runs gh pr create with exactly these arguments, no shell, and returns the URL', async () => {
    repo = await makeTempRepo();
    gh = await createFakeGh();
    const result = await createPullRequest(options(repo.dir, gh.env()));
    expect(result).toEqual({ kind: 'created', url: FAKE_PR_URL });
    expect(await gh.calls()).toEqual([
      {
        cwd: repo.dir,
        args: [
          'pr',
          'create',
          '--title',
          'feat(x): $(touch pwned) `id`',
          '--body',
          'body; rm -rf /\n"quoted"',
          '--head',
          'ralph/x',
          '--base',
          'main',
        ],
      },
    ]);
  });

  it('reports a missing gh', async () => {
    repo = await makeTempRepo();
    const result = await createPullRequest(options(repo.dir, { PATH: repo.dir }));
    expect(result.kind).toBe('gh-missing');
  });

  it('reports gh failing (no auth) with its message, and an existing PR as such', async () => {
    repo = await makeTempRepo();
    gh = await createFakeGh({
      exitCode: 4,
      stdout: '',
      stderr: 'To get started with GitHub CLI, please run:  gh auth login\n',
    });
    expect(await createPullRequest(options(repo.dir, gh.env()))).toEqual({
      kind: 'failed',
      exitCode: 4,
      message: 'To get started with GitHub CLI, please run:  gh auth login',
    });
    await gh.cleanup();
    gh = await createFakeGh({
      exitCode: 1,
      stdout: '',
      stderr:
        'a pull request for branch "ralph/x" into branch "main" already exists:\nhttps://github.com/o/r/pull/3\n',
    });
    expect(await createPullRequest(options(repo.dir, gh.env()))).toEqual({
      kind: 'exists',
      url: 'https://github.com/o/r/pull/3',
    });
  });
});
