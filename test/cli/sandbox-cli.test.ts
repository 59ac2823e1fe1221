/**
 * `--sandbox` at the command line, with the built CLI: refused with one
 * sentence and nothing changed where the sandbox cannot be had; the exact
 * bubblewrap command line in a dry run; what `ralph doctor` and `ralph status`
 * say about it.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processIdentity } from '../../src/state/process-identity.js';
import { CLAUDE_BINARY } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const NO_BWRAP =
  'ralph: --sandbox needs bubblewrap (bwrap), which is not on PATH: install it with your package manager ' +
  '(apt-get install bubblewrap, dnf install bubblewrap or pacman -S bubblewrap), or run without --sandbox\n';

let repo: GitFixture;
let dir: string;
let bin: string;
let home: string;
beforeEach(async () => {
  repo = await createGitFixture({
    files: {
      '.ralph/.gitignore': 'runs/\nworktrees/\n',
      '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
    },
  });
  dir = await makeTempDir('sandbox-cli');
  bin = join(dir, 'bin');
  home = join(dir, 'home');
  await mkdir(bin);
  await mkdir(home);
  // git, and a shell, from the machine; no bwrap.
  await symlink('/usr/bin/git', join(bin, 'git'));
  await symlink('/bin/sh', join(bin, 'sh'));
});
afterEach(async () => {
  await repo.cleanup();
  await removeTempDir(dir);
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: bin,
  HOME: home,
  IS_SANDBOX: '1',
  RALPH_AGENT_PATH: CLAUDE_BINARY,
  ...extra,
});

const ralph = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runRalph(args, { cwd: repo.dir, env: env(extra) });

/** Every file and folder under `root`, with its size and modification time: what "nothing changed" compares. */
async function snapshot(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      const info = await stat(full);
      out.push(`${relative(root, full)} ${info.size} ${info.mtimeMs}`);
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return out.sort();
}

describe('--sandbox where bubblewrap is not on PATH', () => {
  it('refuses with one sentence, exit 2, and changes nothing: run, dry run, goal, worker', async () => {
    const before = [await snapshot(repo.dir), await snapshot(home)];
    for (const args of [
      ['run', 'demo', '--sandbox', '--headless'],
      ['run', 'demo', '--sandbox', '--dry-run'],
      ['run', 'demo', '--sandbox', '--no-worktree', '--json'],
      ['goal', 'Write a greeting', '--sandbox', '--headless'],
      ['run', 'demo', '--sandbox', '--worker', '--story', 'US-001'],
    ]) {
      const result = await ralph(args);
      expect(result.stderr, args.join(' ')).toBe(NO_BWRAP);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect([await snapshot(repo.dir), await snapshot(home)]).toEqual(before);
  });

  it('refuses what the config asks for too, naming the config; --no-sandbox overrides it', async () => {
    await repo.write('.ralph/config.yaml', 'sandbox:\n  enabled: true\n');
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'sandboxed');
    const refused = await ralph(['run', 'demo', '--headless']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'ralph: sandbox.enabled in .ralph/config.yaml needs bubblewrap (bwrap), which is not on PATH: install it with your package manager ' +
        '(apt-get install bubblewrap, dnf install bubblewrap or pacman -S bubblewrap), or run with --no-sandbox\n',
    );
    const overridden = await ralph(['run', 'demo', '--dry-run', '--no-sandbox']);
    expect(overridden.exitCode).toBe(0);
    expect(overridden.stdout).toContain('## Your story: US-001 - Add greeting');
  });

  it('says why when bwrap is there but the system refuses its namespaces', async () => {
    await writeFile(
      join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
    );
    await chmod(join(bin, 'bwrap'), 0o755);
    const result = await ralph(['run', 'demo', '--sandbox', '--headless']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^ralph: --sandbox needs bubblewrap \(.*\/bwrap\) to create its namespaces, which this system refuses \(setting up uid map: Permission denied\): allow unprivileged user namespaces \(sysctl kernel\.unprivileged_userns_clone=1; .*\), or run without --sandbox\n$/,
    );
    const doctor = JSON.parse((await ralph(['doctor', '--json'])).stdout) as {
      sandbox: { available: boolean; tool: string; problem: string; fix: string };
    };
    expect(doctor.sandbox).toMatchObject({ available: false, tool: 'bwrap' });
    expect(doctor.sandbox.problem).toContain('setting up uid map: Permission denied');
    expect(doctor.sandbox.fix).toContain('user namespaces');
  });
});

describe('ralph doctor on the sandbox', () => {
  it('says it works here, with bubblewrap’s version and path', async () => {
    // The machine's own bubblewrap; no agent CLI on this PATH, so the agents' checks are quick.
    const result = await runRalph(['doctor'], {
      cwd: repo.dir,
      env: { PATH: `${bin}:/usr/bin`, HOME: home },
    });
    expect(result.stdout).toMatch(
      /^sandbox:\n {2}✓ bwrap \d+\.\d+\.\d+ {2}\S*\/bwrap {2}\(--sandbox works here\)$/m,
    );
  });

  it('says how to fix it when bwrap is missing, and fails when the config asks for a sandbox', async () => {
    const plain = await ralph(['doctor']);
    expect(plain.stdout).toContain(
      'sandbox:\n  ✗ bwrap: --sandbox cannot work here: it needs bubblewrap (bwrap), which is not on PATH\n' +
        '      to fix it: install it with your package manager (apt-get install bubblewrap, dnf install bubblewrap or pacman -S bubblewrap)',
    );
    await repo.write('.ralph/config.yaml', 'sandbox:\n  enabled: true\n');
    const configured = await ralph(['doctor', '--json']);
    expect(configured.exitCode).toBe(1);
    expect(JSON.parse(configured.stdout)).toMatchObject({
      ok: false,
      sandbox: { available: false, configured: true },
    });
  });
});

describe('ralph run --dry-run --sandbox', () => {
  const withBwrap = () => ({ ...process.env, HOME: home, IS_SANDBOX: '1', RALPH_AGENT_PATH: CLAUDE_BINARY });

  it('prints the exact bubblewrap command line the agent would start with, and makes nothing', async () => {
    const before = [await snapshot(repo.dir), await snapshot(home)];
    const result = await runRalph(['run', 'demo', '--dry-run', '--sandbox', '--no-worktree'], {
      cwd: repo.dir,
      env: withBwrap(),
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('## Your story: US-001 - Add greeting');
    const lines = result.stderr.split('\n');
    const head = lines.findIndex((l) => l.startsWith('sandbox (bwrap): the agent starts as'));
    expect(head).toBeGreaterThan(-1);
    const line = (lines[head + 1] ?? '').trim();
    expect(line).toMatch(/^\S*\/bwrap --unshare-user /);
    expect(line).toContain(` --bind ${repo.dir} ${repo.dir} `);
    expect(line).toContain(` --ro-bind ${repo.dir}/.git/config ${repo.dir}/.git/config `);
    expect(line).toContain(` --ro-bind ${repo.dir}/.git/hooks ${repo.dir}/.git/hooks `);
    expect(line).toContain(` --remount-ro ${home} `);
    expect(line).toMatch(
      new RegExp(
        ` -- ${CLAUDE_BINARY} -p --output-format stream-json --verbose --dangerously-skip-permissions -- '<prompt>'$`,
      ),
    );
    expect(lines[head + 2]).toMatch(/^ {2}in \S+, with .*\bANTHROPIC_|^ {2}in \S+, with .*\bIS_SANDBOX\b/);
    expect([await snapshot(repo.dir), await snapshot(home)]).toEqual(before);

    // The sandbox part of the line runs as printed.
    const sandboxPart = line.slice(0, line.indexOf(` -- ${CLAUDE_BINARY}`));
    const ran = spawnSync('sh', ['-c', `${sandboxPart} -- sh -c 'pwd; touch .sandbox-probe && echo ok'`], {
      encoding: 'utf8',
    });
    expect(ran.stdout).toBe(`${repo.dir}\nok\n`);
    expect(await readFile(join(repo.dir, '.sandbox-probe'), 'utf8')).toBe('');
  });
});

describe('ralph status of a sandboxed run', () => {
  it('shows 🔒 and the sandbox the live run holds its agents in', async () => {
    const runDir = join(repo.dir, '.ralph', 'runs', 'demo');
    await mkdir(runDir, { recursive: true });
    const now = new Date().toISOString();
    const head = await repo.head();
    await writeFile(
      join(runDir, 'state.json'),
      JSON.stringify({
        version: 1,
        name: 'demo',
        taskPath: join(repo.dir, '.ralph/prds/demo/prd.json'),
        startedAt: now,
        updatedAt: now,
        iteration: 1,
        current: { storyId: 'US-001', attempt: 1, iteration: 1, headBefore: head, startedAt: now },
        stories: {},
        totals: { costUsd: 0, inputTokens: 0, outputTokens: 0, iterations: 1 },
      }),
    );
    // This test process stands in for the live run holding the lock.
    const lock = {
      pid: process.pid,
      host: hostname(),
      startedAt: now,
      command: 'ralph run demo',
      processStart: processIdentity(process.pid)?.start,
      sandbox: 'bwrap',
    };
    await writeFile(join(runDir, 'lock'), JSON.stringify(lock));
    const text = await runRalph(['status', 'demo'], { cwd: repo.dir });
    expect(text.stdout).toMatch(/^running: US-001 attempt 1 \(iteration 1\), for \S+ {2}🔒 bwrap sandbox$/m);
    const json = JSON.parse((await runRalph(['status', 'demo', '--json'], { cwd: repo.dir })).stdout) as {
      sandbox: string | null;
    };
    expect(json.sandbox).toBe('bwrap');
  });
});
