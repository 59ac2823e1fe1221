/**
 * Untrusted text stays text where it comes from a question, an iteration's
 * transcript or GitHub: an agent asking with terminal escapes in its
 * question, a person answering with them, the agent's own words told back
 * by `ralph logs --iteration`, and an issue title (or GitHub's own error
 * message) in a `--source github` run. Each shows as symbols in the plain
 * lines, `ralph status`, `ralph answer` and `ralph logs`; `--json` keeps
 * the exact text. The real Claude Code runs against the scripted model,
 * GitHub is a scripted REST server on 127.0.0.1.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type GithubServer, startGithubServer } from '../support/github-server.js';
import {
  AGENT_SAYS,
  CLEAR,
  CLIPBOARD,
  CONTROL,
  SHOWN_AGENT_SAYS,
  SHOWN_TITLE,
  TITLE,
  WINDOW,
} from '../support/hostile-text.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

vi.setConfig({ testTimeout: 240_000 });

const QUESTION = `Which store? ${CLIPBOARD}ASK-CLIP ${WINDOW}ASK-TITLE`;
const SHOWN_QUESTION = 'Which store? ␛]52;c;SE9TVElMRQ==␇ASK-CLIP ␛]0;PWNED␇ASK-TITLE';
const ANSWER = `SQLite ${CLEAR}ANSWER-CLEAR`;
const SHOWN_ANSWER = 'SQLite ␛[2JANSWER-CLEAR';

let project: LoopProject | undefined;
let github: GithubServer | undefined;
afterEach(async () => {
  await project?.cleanup();
  await github?.close();
  project = undefined;
  github = undefined;
});

/** Neither stream of a command holds a raw control character. */
function expectInert(result: { stdout: string; stderr: string }, what: string): void {
  expect(result.stdout, what).not.toMatch(CONTROL);
  expect(result.stderr, what).not.toMatch(CONTROL);
}

describe('hostile text in questions, transcripts and GitHub issues', () => {
  it('a question and its answer, and the agent’s words in ralph logs --iteration, show as symbols', async () => {
    project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Store greetings' }]) },
      {
        'US-001': [
          [{ text: `${AGENT_SAYS}\n<ralph>ASK US-001: ${QUESTION}</ralph>` }],
          implement('US-001', 'Store greetings', 'store.txt', 'sqlite\n'),
        ],
      },
    );
    const p = project;
    const ralph = (args: string[]) => runRalph(args, { cwd: p.repo.dir, env: p.claude.env });

    const asked = await p.run(['demo', '--headless', '--no-worktree']);
    expect(asked.exitCode).toBe(1);
    expectInert(asked, 'the asking run');
    expect(asked.stdout).toContain(`? US-001 asks: ${SHOWN_QUESTION}`);
    const log = await p.read('.ralph/runs/demo/ralph.log');
    expect(log).not.toMatch(CONTROL);
    expect(log).toContain(`? US-001 asks: ${SHOWN_QUESTION}`);

    const status = await ralph(['status', 'demo']);
    expectInert(status, 'status');
    expect(status.stdout).toContain(`asks: ${SHOWN_QUESTION}`);
    const json = JSON.parse((await ralph(['status', 'demo', '--json'])).stdout);
    expect(json.questions[0].question).toBe(QUESTION);

    // The iteration told the morning after: the agent's words, and what it asked.
    const told = await ralph(['logs', 'demo', '--iteration', '1']);
    expect(told.exitCode).toBe(0);
    expectInert(told, 'logs --iteration');
    expect(told.stdout).toContain(SHOWN_AGENT_SAYS);
    expect(told.stdout).toContain(SHOWN_QUESTION);

    const answered = await ralph(['answer', 'demo', 'US-001', ANSWER]);
    expect(answered.exitCode).toBe(0);
    expectInert(answered, 'answer');
    const after = await ralph(['status', 'demo']);
    expectInert(after, 'status after the answer');
    expect(after.stdout).toContain(`answered: ${SHOWN_ANSWER}`);

    const resumed = await p.run(['demo', '--headless', '--no-worktree']);
    expect(resumed.exitCode).toBe(0);
    expectInert(resumed, 'the answered run');
    // The answer reached the next prompt exactly as it was given.
    expect(p.stories.prompts('US-001').at(-1)).toContain(ANSWER);
  });

  it('an issue title and GitHub’s own error message show as symbols in a --source github run', async () => {
    github = await startGithubServer({
      owner: 'acme',
      repo: 'app',
      token: 'ghp_scripted_token',
      issues: [{ number: 1, title: TITLE, body: '- [ ] ok.txt exists\n', labels: ['ralph'] }],
    });
    // The opening read meets an outage first, GitHub's message carrying escapes of its own.
    github.failNext({ status: 502, message: `Bad gateway ${WINDOW}GH-TITLE` });
    project = await createLoopProject({}, { 'GH-1': [implement('GH-1', 'Greet', 'ok.txt', 'ok\n')] });
    const env = { GITHUB_API_URL: github.url, GH_TOKEN: 'ghp_scripted_token' };
    const source = ['--source', 'github', '--repo', 'acme/app'];

    const run = await project.run([...source, '--headless', '--no-worktree'], { env });
    expect(run.exitCode).toBe(0);
    expectInert(run, 'the run');
    expect(run.stderr).toContain('Bad gateway ␛]0;PWNED␇GH-TITLE');
    expect(run.stdout).toContain(`GH-1 ${SHOWN_TITLE}`);

    const status = await runRalph(['status', ...source], {
      cwd: project.repo.dir,
      env: { ...project.claude.env, ...env },
    });
    expect(status.exitCode).toBe(0);
    expectInert(status, 'status');
    expect(status.stdout).toContain(SHOWN_TITLE);
  });
});
