/**
 * Git first, GitHub after (`--source github --parallel 2`, the real Claude
 * Code): ralph killed at the moment between a landing's record and the move
 * of the PRD branch (`landing-recorded`), where an earlier version had
 * already labelled the issue `ralph:done`. The issue must not claim what the
 * branch lacks; and where it does (the label of that earlier version, put
 * back by hand), the rerun believes git: the label comes off, the story's
 * verified branch is kept and landed, once, and only then labelled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type GithubServer, startGithubServer } from '../support/github-server.js';
import { createLoopProject, type LoopProject, runEvents } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';

const TOKEN = 'ghp_scripted_token';
const BRANCH = 'ralph/github-ralph';

let project: LoopProject | undefined;
let github: GithubServer | undefined;
afterEach(async () => {
  await project?.cleanup();
  await github?.close();
  project = undefined;
  github = undefined;
});

describe('a parallel GitHub run killed between a landing record and its branch move', () => {
  it('keeps the verified branch, lands it once, and labels the issue only when git holds it', async () => {
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: TOKEN,
      issues: [
        { number: 1, title: 'Add greeting', body: '- [ ] greet.txt', labels: ['ralph'] },
        { number: 2, title: 'Add farewell', body: '- [ ] bye.txt', labels: ['ralph'] },
      ],
    });
    project = await createLoopProject(
      { '.ralph/.gitignore': 'runs/\nworktrees/\n' },
      {
        'GH-1': [implement('GH-1', 'Add greeting', 'greet.txt', 'hello\n')],
        'GH-2': [implement('GH-2', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const args = ['--source', 'github', '--repo', 'acme/app', '--headless', '--parallel', '2'];
    const env = { GITHUB_API_URL: github.url, GH_TOKEN: TOKEN };

    const killed = await project.run(args, { env: { ...env, RALPH_FAULT_AT: 'landing-recorded#1' } });
    expect(killed.signal).toBe('SIGKILL');
    const state = JSON.parse(await project.read('.ralph/runs/github-ralph/state.json')) as {
      integrating?: { storyId: string };
    };
    const storyId = state.integrating?.storyId;
    expect(storyId).toMatch(/^GH-[12]$/);
    const issue = Number(storyId?.slice(3));
    const subjects = async () =>
      (await project?.repo.git('log', '--format=%s', BRANCH, '--'))?.split('\n') ?? [];
    // The pass is recorded on the detached checkout only: the branch lacks it, and so does the issue.
    expect(await subjects()).not.toContain(`chore(ralph): ${storyId} passed`);
    expect(github.labelsOf(issue)).not.toContain('ralph:done');
    const storyBranch = `ralph-stories/github-ralph/${storyId}`;
    expect(await project.repo.git('branch', '--list', storyBranch)).toContain(storyBranch);

    // What the earlier version had written before the branch moved: a label claiming the work.
    const labelled = await fetch(`${github.url}/repos/acme/app/issues/${issue}/labels`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ labels: ['ralph:done'] }),
    });
    expect(labelled.status).toBe(200);
    const callsBefore = github.calls.length;
    const eventsBefore = (await runEvents(project)).length;

    const rerun = await project.run(args, { env });
    expect(rerun.stderr).toBe('');
    expect(rerun.exitCode).toBe(0);

    // Git: each story's work and pass record once.
    const after = await subjects();
    for (const id of ['GH-1', 'GH-2']) {
      expect(after.filter((s) => s === `chore(ralph): ${id} passed`)).toHaveLength(1);
      expect(after.filter((s) => s.startsWith(`feat: ${id} `))).toHaveLength(1);
    }
    // The verified branch was kept and landed, never cleaned away as landed.
    const events = (await runEvents(project)).slice(eventsBefore);
    const mine = events.filter((e) => e.storyId === storyId);
    const actions = mine.filter((e) => e.type === 'recovered').map((e) => e.action);
    expect(actions).toContain('kept-verified');
    expect(actions).not.toContain('cleaned');
    const kept = mine.findIndex((e) => e.type === 'recovered' && e.action === 'kept-verified');
    const passed = mine.findIndex((e) => e.type === 'story-passed');
    expect(passed).toBeGreaterThan(kept);

    // GitHub: the wrong label taken off before the landing, put back after it, one "passed" comment each.
    const calls = github.calls.slice(callsBefore);
    const labelPath = `/repos/acme/app/issues/${issue}/labels`;
    const removed = calls.findIndex((c) => c.method === 'DELETE' && c.path === `${labelPath}/ralph%3Adone`);
    const added = calls.findIndex(
      (c) =>
        c.method === 'POST' &&
        c.path === labelPath &&
        JSON.stringify((c.body as { labels?: unknown }).labels) === '["ralph:done"]',
    );
    expect(removed).toBeGreaterThanOrEqual(0);
    expect(added).toBeGreaterThan(removed);
    for (const n of [1, 2]) {
      expect(github.labelsOf(n)).toContain('ralph:done');
      expect(
        github.comments.filter((c) => c.issue === n && c.body.startsWith(`ralph verified GH-${n}`)),
      ).toHaveLength(1);
    }
  });
});
