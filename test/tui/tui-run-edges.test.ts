/**
 * The built `ralph run` in a real terminal over the real Claude Code: what a
 * newcomer meets in the first hour — the diff of an attempt not yet
 * verified, stopping with `x`, a limit set with `+`, a missing agent, a
 * terminal without colours, the progress file in the details.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { CLAUDE_BINARY } from '../support/claude-env.js';
import { createGitFixture } from '../support/git-fixture.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { fail, implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const terminals = terminalTests();

const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];

function ralph(project: LoopProject, args: string[], size = { columns: 100, rows: 30 }, env = {}) {
  return terminals.start(args, {
    cwd: project.repo.dir,
    env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath, ...env }),
    ...size,
  });
}

/** Files the agent's Bash waits on: `started` once it is there, `release` to go on. */
async function gate(): Promise<{ started: string; release: string; wait: string }> {
  const dir = await makeTempDir('tui-edges');
  terminals.defer(() => removeTempDir(dir));
  const started = join(dir, 'started');
  const release = join(dir, 'release');
  return {
    started,
    release,
    wait: `touch '${started}'; while [ ! -f '${release}' ]; do sleep 0.1; done`,
  };
}

async function until(file: string): Promise<void> {
  for (let i = 0; i < 1200 && !existsSync(file); i++) await sleep(100);
  expect(existsSync(file), `${file} never appeared`).toBe(true);
}

describe('d while the attempt is not verified yet', () => {
  it("shows the attempt's work since it began: its commits, then what is not committed", async () => {
    const g = await gate();
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE.slice(0, 1)) },
      {
        'US-001': [
          [
            ...implement('US-001', 'Add greeting', 'greet.txt', 'hello\n').slice(0, 2),
            { tool: 'Write', input: { file_path: 'greet.txt', content: 'hello, world\n' } },
            {
              tool: 'Bash',
              input: { command: `echo draft > draft.txt; ${g.wait}`, description: 'wait for the test' },
            },
            {
              tool: 'Bash',
              input: {
                command: 'git add -A && git commit -q -m "feat: US-001 - polish"',
                description: 'commit',
              },
            },
            { text: 'Done.\n<ralph>DONE US-001</ralph>' },
          ],
        ],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree'], { columns: 100, rows: 60 });
    await t.see('press s to start');
    t.type('s');
    await until(g.started);
    t.type('d');
    const screen = await t.see(
      (s) => s.text.includes('Diff — US-001 attempt 1, since it began') && !s.text.includes('loading…'),
    );
    expect(screen.text).not.toContain('No changes');
    expect(screen.text).toMatch(
      /US-001 attempt 1, since [0-9a-f]{7}: 1 commit, and changes not committed yet/,
    );
    expect(screen.text).toContain('feat: US-001 - Add greeting');
    expect(screen.text).toContain('+hello');
    expect(screen.text).toContain('Not committed yet:');
    expect(screen.text).toContain('+hello, world');
    expect(screen.text).toContain('Not tracked yet:');
    expect(screen.text).toMatch(/^draft\.txt$/m);

    await writeFile(g.release, '');
    t.type(KEYS.escape);
    await t.see('demo complete — every story passed', 90_000);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});

describe('x, and a limit set with +', () => {
  it('x says stopped in the header too; the limit the user set stays theirs when s resumes', async () => {
    const g = await gate();
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE) },
      {
        'US-001': [
          [{ tool: 'Bash', input: { command: g.wait, description: 'wait for the test' } }],
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree']);
    // Three stories: the default limit is 3 + 5.
    await t.see('Iteration 0/8');
    t.type('s');
    await until(g.started);
    t.type('+');
    await t.see((s) => (s.rows[1] ?? '').includes('Iteration 1/13'));
    t.type('x');
    const stopped = (s: { rows: string[] }) =>
      (s.rows[0] ?? '').includes('Stopped — press s to resume') &&
      (s.rows[1] ?? '').includes('Iteration 1/13');
    let screen = await t.see(stopped);
    expect(screen.text).not.toContain('Paused');
    expect(screen.text).toContain('stopped; the interrupted attempt was rolled back');
    // The reload that follows the end of the run does not take the user's limit back to the default.
    await sleep(1500);
    screen = t.screen();
    expect(screen.rows[1]).toContain('Iteration 1/13');
    expect(screen.rows[1]).not.toContain('1/9');

    t.type('s');
    await t.see((s) => (s.rows[1] ?? '').includes('Iteration 2/13'), 60_000);
    screen = await t.see('demo complete — every story passed', 120_000);
    expect(screen.text).toContain('Total: 3/3 passed · 4 iterations ·');
    // Complete: the header keeps the figures of the run that did it.
    expect(screen.rows[1]).toContain('Iteration 4/13');
    // The resumed session went up to iteration 13 (12 after iteration 1), not back to the default (8).
    const limits = (await project.read('.ralph/runs/demo/events.jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; maxIterations?: number })
      .filter((e) => e.type === 'run-started' || e.type === 'max-iterations-changed')
      .map((e) => `${e.type} ${e.maxIterations}`);
    expect(limits).toEqual(['run-started 8', 'run-started 12']);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});

describe('NO_COLOR', () => {
  /** Every screen a run shows without an agent: dashboard, help, log, another tab, the completion screen. */
  async function screens(env: NodeJS.ProcessEnv): Promise<{ colored: string; inverse: string }> {
    const done = JSON.parse(prdJson(THREE)) as { userStories: { passes: boolean }[] };
    for (const s of done.userStories) s.passes = true;
    const repo = await createGitFixture({
      files: {
        'README.md': '# demo\n',
        '.ralph/prds/done/prd.json': `${JSON.stringify(done, null, 2)}\n`,
        '.ralph/prds/todo/prd.json': prdJson(THREE, { branchName: 'ralph/todo' }),
      },
    });
    terminals.defer(repo.cleanup);
    const t = terminals.start(['run', 'todo'], {
      cwd: repo.dir,
      env: terminalEnv({ RALPH_AGENT_PATH: CLAUDE_BINARY, IS_SANDBOX: '1', ...env }),
      columns: 100,
      rows: 30,
    });
    const seen = [await t.see('Ready — press s to start')];
    t.type('?');
    seen.push(await t.see('Keys'));
    t.type(KEYS.escape);
    await t.see('Stories 0/3 done');
    t.type('t');
    seen.push(await t.see('Log — todo'));
    t.type('1');
    seen.push(await t.see('(done) Complete'));
    t.type('s');
    seen.push(await t.see('done complete — every story passed'));
    t.type('q');
    expect(await t.exited).toBe(0);
    return {
      colored: seen.map((s) => s.colored).join(''),
      inverse: seen.map((s) => s.inverse).join(''),
    };
  }

  it('set: the TUI draws no colour at all, as the plain output; the focused story still shows', async () => {
    // The same screens do have colours without it: the check can see them.
    expect((await screens({})).colored).not.toBe('');
    const plain = await screens({ NO_COLOR: '1' });
    expect(plain.colored).toBe('');
    expect(plain.inverse).toContain('US-001');
  });
});

describe('a missing agent binary', () => {
  it('is said when the TUI opens, with the --agent-path hint of the plain output, before any key', async () => {
    const repo = await createGitFixture({
      files: { 'README.md': '# demo\n', '.ralph/prds/demo/prd.json': prdJson(THREE) },
    });
    terminals.defer(repo.cleanup);
    const t = terminals.start(['run', 'demo', '--agent-path', '/nowhere/claude'], {
      cwd: repo.dir,
      env: terminalEnv({ IS_SANDBOX: '1' }),
      columns: 100,
      rows: 30,
    });
    let screen = await t.see('The agent cannot run here');
    expect(screen.text).toContain('Claude Code not found: /nowhere/claude');
    expect(screen.text).toContain(
      'install it, or point --agent-path / RALPH_AGENT_PATH / agent.path in .ralph/config.yaml at it',
    );
    t.type(KEYS.escape);
    screen = await t.see('Stories 0/3 done');
    expect(screen.rows[0]).toContain('Cannot start: Claude Code not found: /nowhere/claude');
    // s tries again, and says the same.
    t.type('s');
    screen = await t.see('Could not start: Claude Code not found: /nowhere/claude');
    t.type('q');
    expect(await t.exited).toBe(0);
    // Nothing was started: no branch, no commit.
    expect(await repo.git('branch', '--list', 'ralph/demo')).toBe('');
    expect(await repo.subjects()).toHaveLength(1);
  });
});

describe('a run that stopped with a story parked', () => {
  it('says "1 attempt", and its summary says nothing of push and pull request', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE.slice(0, 1)) },
      { 'US-001': [fail('US-001', 'the greeting needs a design decision')] },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree', '--max-retries', '1']);
    await t.see('press s to start');
    t.type('s');
    let screen = await t.see('■ demo: stopped with work left', 90_000);
    expect(screen.text).toMatch(/✗ US-001\s+Add greeting/);
    expect(screen.text).not.toMatch(/push|pull request/i);
    t.type('t');
    screen = await t.see('Log — demo');
    expect(screen.text).toContain('✗ US-001 parked after 1 attempt: The agent reported FAIL');
    expect(screen.text).not.toContain('1 attempts');
    t.type('q');
    expect(await t.exited).toBe(1);
  });
});

describe('the progress entry in the details', () => {
  it('is rendered: no ## or **, the learnings nested under their heading', async () => {
    const project = await createLoopProject(
      { '.ralph/prds/demo/prd.json': prdJson(THREE.slice(0, 1)) },
      {
        'US-001': [
          implement(
            'US-001',
            'Add greeting',
            'greet.txt',
            'hello\n',
            '\n<ralph>LEARN: write files with printf, not echo</ralph>',
          ),
        ],
      },
    );
    terminals.defer(project.cleanup);
    const t = ralph(project, ['run', 'demo', '--no-worktree'], { columns: 120, rows: 40 });
    await t.see('press s to start');
    t.type('s');
    await t.see('demo complete — every story passed', 90_000);
    // What ralph wrote to the progress file is markdown.
    const progress = await project.read('.ralph/prds/demo/progress.md');
    expect(progress).toMatch(/^## .* - US-001: Add greeting$/m);
    expect(progress).toContain(
      '- **Learnings for future iterations:**\n  - write files with printf, not echo',
    );
    t.type(KEYS.escape);
    const screen = await t.see('Progress');
    const details = screen.rows.map((r) => r.split('││')[1] ?? '').join('\n');
    expect(details).toMatch(/^ *\d{4}-\d\d-\d\d.* - US-001: Add greeting/m);
    expect(details).not.toContain('##');
    expect(details).not.toContain('**');
    expect(details).toMatch(/^ *• Files changed:/m);
    expect(details).toMatch(/^ {3,}◦ greet\.txt/m);
    expect(details).toMatch(/^ *• Learnings for future iterations:/m);
    expect(details).toMatch(/^ {3,}◦ write files with printf, not echo/m);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});
