/**
 * The sandbox wrapper with the real bubblewrap around real shell commands, in
 * real repositories: what a sandboxed command can and cannot do, without an
 * agent. (The agents themselves: test/e2e/sandbox-*.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { ATTEMPT_ENV, processesWithEnv } from '../agents/process-environ.js';
import { terminateGroup } from '../agents/process-group.js';
import { type CommandWrapper, spawnCommand } from '../agents/spawn-command.js';
import { findSandboxTool } from './sandbox-tool.js';
import { createSandboxWrapper, type SandboxSettings } from './sandbox-wrapper.js';

const found = findSandboxTool();
const describeWithBwrap = found.ok && found.tool.kind === 'bwrap' ? describe : describe.skip;

interface Ran {
  code: number | null;
  out: string;
}

function run(wrap: CommandWrapper, script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawnCommand(
      { file: 'sh', args: ['-c', script], cwd, env },
      ['ignore', 'pipe', 'pipe'],
      wrap,
    );
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Members of a process group still running (zombies the machine's init has not reaped yet do not count). */
function runningInGroup(pgid: number): number[] {
  return readdirSync('/proc').flatMap((name) => {
    try {
      // pid (comm) state ppid pgrp …: the fields after the command's closing parenthesis.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

let repo: TempRepo;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  repo = await makeTempRepo();
  await repo.commit('init', { 'README.md': '# t\n' });
  home = await mkdtemp(path.join(os.tmpdir(), 'ralph-sandbox-home-'));
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    GH_TOKEN: 'ghp-must-stay-out',
    [ATTEMPT_ENV]: `sandbox-test-${process.pid}-${Date.now()}`,
  };
});
afterEach(async () => {
  await repo.cleanup();
  await rm(home, { recursive: true, force: true });
});

/** The wrapper with the protection of item 4 taken out: every `--bind <copy> <path>` made `--bind <path> <path>`. */
function withoutStateCopy(wrap: CommandWrapper): CommandWrapper {
  return (command) => {
    const wrapped = wrap(command);
    const args = [...wrapped.args];
    for (
      let i = args.indexOf('--bind');
      i >= 0 && i < args.indexOf('--');
      i = args.indexOf('--bind', i + 1)
    ) {
      args[i + 1] = args[i + 2] ?? '';
    }
    return { ...wrapped, args };
  };
}

function sandbox(overrides: Partial<SandboxSettings> = {}): CommandWrapper {
  if (!found.ok) throw new Error('no sandbox here');
  return createSandboxWrapper(found.tool, {
    root: repo.dir,
    providers: ['claude'],
    binaries: [],
    env: [],
    allowRead: [],
    allowWrite: [],
    network: 'host',
    ...overrides,
  });
}

describeWithBwrap('a sandboxed command in the main checkout', () => {
  it('writes and commits in the checkout; cannot touch the hooks, the config, $HOME or ~/.ssh', async () => {
    const script = [
      'echo work > work.txt && git add work.txt && git commit -q -m "feat: work" && echo committed',
      'echo x > .git/hooks/pre-commit || echo hooks-refused',
      'echo "[core] fsmonitor = evil" >> .git/config || echo config-refused',
      'mv .git .git-aside || echo gitdir-pinned',
      `echo x > "${home}/planted" || echo home-refused`,
      `cat "${home}/.ssh/id_ed25519" || echo ssh-unseen`,
    ].join('; ');
    const ran = await run(sandbox(), script, repo.dir, env);
    for (const said of [
      'committed',
      'hooks-refused',
      'config-refused',
      'gitdir-pinned',
      'home-refused',
      'ssh-unseen',
    ]) {
      expect(ran.out).toContain(said);
    }
    expect(ran.out).not.toContain('PRIVATE KEY');
    expect(await repo.git('log', '-1', '--format=%s')).toBe('feat: work');
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(path.join(repo.dir, '.git', 'config'), 'utf8')).not.toContain('evil');
    expect(existsSync(path.join(home, 'planted'))).toBe(false);
  });

  it('sees the agent’s keys and ralph’s attempt token, not the other secrets; a private /tmp', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ralph-visible-'));
    try {
      const ran = await run(
        sandbox(),
        `env | sort; ls "${outside}" 2>/dev/null || echo tmp-is-private`,
        repo.dir,
        env,
      );
      expect(ran.out).toContain('ANTHROPIC_API_KEY=sk-ant-test');
      expect(ran.out).toContain(`${ATTEMPT_ENV}=${env[ATTEMPT_ENV]}`);
      expect(ran.out).toContain('TMPDIR=/tmp');
      expect(ran.out).not.toContain('GH_TOKEN');
      expect(ran.out).toContain('tmp-is-private');
      const listed = await run(sandbox({ env: ['GH_TOKEN'] }), 'echo "$GH_TOKEN"', repo.dir, env);
      expect(listed.out.trim()).toBe('ghp-must-stay-out');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('shows the agent’s state (~/.claude, ~/.claude.json) from a copy for the run; only a refreshed login comes back', async () => {
    await writeFile(path.join(home, '.claude.json'), '{"numStartups": 1}\n');
    await mkdir(path.join(home, '.claude'));
    await writeFile(path.join(home, '.claude', '.credentials.json'), '{"token":"old"}\n');
    const hook = '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}';
    const plant = [
      `echo '${hook}' > "${home}/.claude/settings.json"`,
      `mkdir -p "${home}/.claude/commands" && echo evil > "${home}/.claude/commands/x.md"`,
      `echo '{"numStartups": 2, "mcpServers": {"x": {"command": "evil"}}}' > "${home}/.claude.json"`,
      // The CLI refreshing its OAuth login, as it renames a new file over the old.
      `echo '{"token":"new"}' > "${home}/.claude/.c.tmp" && mv "${home}/.claude/.c.tmp" "${home}/.claude/.credentials.json"`,
    ].join(' && ');
    const wrap = sandbox();
    expect((await run(wrap, plant, repo.dir, env)).code).toBe(0);
    // The next command of the run sees what the last one wrote: the copy is the run's.
    const again = await run(
      wrap,
      `cat "${home}/.claude/settings.json" "${home}/.claude.json"`,
      repo.dir,
      env,
    );
    expect(again.out).toContain('SessionStart');
    expect(again.out).toContain('"numStartups": 2');

    expect(existsSync(path.join(home, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(path.join(home, '.claude', 'commands'))).toBe(false);
    expect(await readFile(path.join(home, '.claude.json'), 'utf8')).toBe('{"numStartups": 1}\n');
    expect(await readFile(path.join(home, '.claude', '.credentials.json'), 'utf8')).toBe('{"token":"new"}\n');
  });

  it('without the copy (each state path bound on itself) the same planting reaches the real folder', async () => {
    const hook = '{"hooks":{"SessionStart":[]}}';
    const wrap = withoutStateCopy(sandbox());
    const ran = await run(wrap, `echo '${hook}' > "${home}/.claude/settings.json"`, repo.dir, env);
    expect(ran.code).toBe(0);
    expect(await readFile(path.join(home, '.claude', 'settings.json'), 'utf8')).toBe(`${hook}\n`);
  });

  it('copies back a login only as a regular file: a link planted at its name is not followed', async () => {
    await mkdir(path.join(home, '.claude'));
    await writeFile(path.join(home, '.claude', '.credentials.json'), '{"token":"old"}\n');
    const wrap = sandbox();
    const ran = await run(
      wrap,
      `rm "${home}/.claude/.credentials.json" && ln -s /etc/passwd "${home}/.claude/.credentials.json"`,
      repo.dir,
      env,
    );
    expect(ran.code).toBe(0);
    expect(await readFile(path.join(home, '.claude', '.credentials.json'), 'utf8')).toBe('{"token":"old"}\n');
  });

  it('sandbox.allowWrite opens a path; allowRead shows one from $HOME read-only', async () => {
    await mkdir(path.join(home, '.m2'));
    await writeFile(path.join(home, '.m2', 'settings.xml'), '<settings/>\n');
    const wrap = sandbox({ allowWrite: ['~/.npm'], allowRead: ['~/.m2'] });
    const ran = await run(
      wrap,
      `echo c > "${home}/.npm/cache" && cat "${home}/.m2/settings.xml" && (echo x > "${home}/.m2/x" || echo m2-read-only)`,
      repo.dir,
      env,
    );
    expect(ran.out).toContain('<settings/>');
    expect(ran.out).toContain('m2-read-only');
    expect(await readFile(path.join(home, '.npm', 'cache'), 'utf8')).toBe('c\n');
  });

  it('stops whole: killing its process group ends everything in the sandbox', async () => {
    const child = spawnCommand(
      { file: 'sh', args: ['-c', 'sleep 300 & sleep 300 & wait'], cwd: repo.dir, env },
      'ignore',
      sandbox(),
    );
    const token = env[ATTEMPT_ENV] ?? '';
    // The sleeps carry the attempt's token, as an agent's tools do: a resumed run finds them by it.
    for (let i = 0; i < 100 && processesWithEnv(ATTEMPT_ENV, token).length < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(processesWithEnv(ATTEMPT_ENV, token).length).toBeGreaterThanOrEqual(3);
    const closed = new Promise((resolve) => child.once('close', resolve));
    await terminateGroup(child.pid ?? 0, 2_000);
    await closed;
    expect(runningInGroup(child.pid ?? 0)).toEqual([]);
    expect(processesWithEnv(ATTEMPT_ENV, token)).toEqual([]);
  });
});

describeWithBwrap('a sandboxed command in a linked worktree', () => {
  it('commits on its branch; the shared config, hooks and its git pointers stay read-only', async () => {
    const worktree = path.join(repo.dir, '.ralph', 'worktrees', 'demo');
    await repo.git('worktree', 'add', '-q', '-b', 'ralph/demo', worktree);
    const gitDir = (await repo.git('-C', worktree, 'rev-parse', '--absolute-git-dir')).trim();
    await writeFile(path.join(gitDir, 'ralph.gitconfig'), '[core]\n');
    const script = [
      'echo w > w.txt && git add w.txt && git commit -q -m "feat: w" && echo committed',
      `echo x > "${repo.dir}/.git/hooks/pre-commit" || echo hooks-refused`,
      `echo "[core] hooksPath = /tmp" >> "${gitDir}/ralph.gitconfig" || echo include-refused`,
      `echo /tmp/evil > "${gitDir}/commondir" || echo commondir-refused`,
      'echo "gitdir: /tmp/evil" > .git || echo gitfile-refused',
      // Under /tmp the main checkout is not there at all: a write lands in the private /tmp, never on it.
      `echo x > "${repo.dir}/README.md"`,
    ].join('; ');
    const ran = await run(sandbox(), script, worktree, env);
    for (const said of [
      'committed',
      'hooks-refused',
      'include-refused',
      'commondir-refused',
      'gitfile-refused',
    ]) {
      expect(ran.out).toContain(said);
    }
    expect(await repo.git('log', '-1', '--format=%s', 'ralph/demo')).toBe('feat: w');
    expect(await readFile(path.join(repo.dir, 'README.md'), 'utf8')).toBe('# t\n');
    expect(await readFile(path.join(gitDir, 'ralph.gitconfig'), 'utf8')).toBe('[core]\n');
  });
});

describeWithBwrap('sandbox.network', () => {
  let server: Server;
  let port = 0;
  beforeEach(async () => {
    server = createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const connect = (p: number) =>
    `node -e "require('net').connect(${p}, '127.0.0.1').on('data', d => process.stdout.write(d)).on('error', () => { console.log('unreachable'); })"`;

  it('host: the user’s network, as the agent needs to reach its API', async () => {
    expect((await run(sandbox(), connect(port), repo.dir, env)).out).toContain('hello');
  });

  it('none: no network at all', async () => {
    const ran = await run(sandbox({ network: 'none' }), connect(port), repo.dir, env);
    expect(ran.out).toContain('unreachable');
    expect(ran.out).not.toContain('hello');
  });
});

describeWithBwrap('the hooks directory', () => {
  it('is made when missing, so that it can be protected', async () => {
    await rm(path.join(repo.dir, '.git', 'hooks'), { recursive: true, force: true });
    const ran = await run(
      sandbox(),
      'mkdir -p .git/hooks && echo x > .git/hooks/pre-commit || echo refused',
      repo.dir,
      env,
    );
    expect(ran.out).toContain('refused');
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo.dir, encoding: 'utf8' })).toBe('');
  });
});
