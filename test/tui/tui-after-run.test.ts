/**
 * After the last story passed, in a real terminal over the real Claude Code:
 * push and pull request with their progress and outcome on the completion
 * screen; merge and clean run inside the TUI, after settings were saved.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const ONE = [{ id: 'US-001', title: 'Add greeting' }];
const PR_URL = 'https://github.com/example/demo/pull/7';

const terminals = terminalTests();

async function project(config: string): Promise<LoopProject> {
  const p = await createLoopProject(
    { '.ralph/prds/demo/prd.json': prdJson(ONE), '.ralph/config.yaml': config },
    { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
  );
  terminals.defer(p.cleanup);
  return p;
}

function ralph(p: LoopProject, env: NodeJS.ProcessEnv = {}) {
  return terminals.start(['run', 'demo'], {
    cwd: p.repo.dir,
    env: terminalEnv({ ...p.claude.env, RALPH_AGENT_PATH: p.claude.binaryPath, ...env }),
    columns: 100,
    rows: 30,
  });
}

/** A `gh` that takes its time, so the pull request is seen under way, then prints the new PR's URL. */
async function slowGh(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-slow-gh-'));
  terminals.defer(() => rm(dir, { recursive: true, force: true }));
  const gh = join(dir, 'gh');
  await writeFile(
    gh,
    `#!${process.execPath}\nsetTimeout(() => console.log(${JSON.stringify(PR_URL)}), 2500);\n`,
  );
  await chmod(gh, 0o755);
  return dir;
}

const PUSH_AND_PR = 'onComplete:\n  push: true\n  createPR: true\n';

describe('push and pull request on the completion screen', () => {
  it('shows why the push failed and that no pull request was made', async () => {
    const p = await project(PUSH_AND_PR);
    const t = ralph(p);
    await t.see('press s to start');
    t.type('s');
    const screen = await t.see('✗ Pull request failed', 90_000);
    expect(screen.text).toContain('demo complete — every story passed');
    expect(screen.text).toContain('✗ Push failed: no remote named origin');
    expect(screen.text).toContain('✗ Pull request failed: not created: the branch could not be pushed');
    t.type('q');
    expect(await t.exited).toBe(0);
  });

  it('shows each step under way, then done, with the pull request URL', async () => {
    const p = await project(PUSH_AND_PR);
    const origin = await mkdtemp(join(tmpdir(), 'ralph-origin-'));
    terminals.defer(() => rm(origin, { recursive: true, force: true }));
    await p.repo.git('init', '--quiet', '--bare', origin);
    await p.repo.git('remote', 'add', 'origin', origin);
    const ghDir = await slowGh();
    const t = ralph(p, { PATH: `${ghDir}${delimiter}${process.env.PATH ?? ''}` });
    await t.see('press s to start');
    t.type('s');
    let screen = await t.see(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Pull request: opening ralph\/demo → main/, 90_000);
    expect(screen.text).toContain('✓ Push: ralph/demo → origin');
    screen = await t.see('✓ Pull request: opened');
    expect(screen.text).toContain(PR_URL);
    t.type('q');
    expect(await t.exited).toBe(0);
  });
});

describe('settings, merge and clean inside the TUI', () => {
  it('a setting saved with , does not block m; c asks first; the header follows', async () => {
    const p = await project('notifications:\n  bell: true\n');
    const t = ralph(p);
    await t.see('press s to start');
    t.type(',');
    await t.see('Settings');
    // Agent, Model, Add a check, Worktree, Worktree setup, Push, Pull request, then the bell.
    t.type('jjjjjjj');
    await t.see(/› Terminal bell\s+on/);
    t.type(KEYS.enter);
    await t.see(/› Terminal bell\s+off/);
    expect(await p.read('.ralph/config.yaml')).toContain('bell: false');
    t.type(KEYS.escape);
    await t.see('Stories 0/1 done');

    t.type('s');
    await t.see('demo complete — every story passed', 90_000);
    await t.see((s) => (s.rows[1] ?? '').includes('worktree'));
    t.type('m');
    let screen = await t.see('✓ Merge: merged ralph/demo into main');
    // The title stays: nothing was written over the TUI.
    expect(screen.rows[0]).toMatch(/^ralph Demo \(demo\)/);
    expect(await p.repo.git('log', '-1', '--format=%s', 'main')).toContain('ralph/demo');
    expect(await readFile(join(p.repo.dir, 'greet.txt'), 'utf8')).toBe('hello\n');

    t.type('c');
    await t.see('Remove the worktree of demo (branch ralph/demo stays)? (y/n)');
    t.type('y');
    screen = await t.see('✓ Clean: removed the worktree');
    expect(screen.rows[0]).toMatch(/^ralph Demo \(demo\)/);
    await t.see((s) => !(s.rows[1] ?? '').includes('worktree'));

    t.type('q');
    expect(await t.exited).toBe(0);
    expect(t.shell()).toContain('demo: 1/1 stories passed, complete');
    // The setting is still there, uncommitted, for the user to keep or commit.
    expect(await p.read('.ralph/config.yaml')).toContain('bell: false');
  });
});
