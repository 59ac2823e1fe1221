/**
 * Item 9: a program inside the box cannot reach into another process of the
 * box (the agent's) — not by ptrace, not by process_vm_writev, not by a
 * write to /proc/<pid>/mem — under the real bubblewrap, with the run's own
 * wrapper. With the protection taken out of the command line (the seccomp
 * filter and the read-only /proc), the same program gets in each way.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Command, type CommandWrapper, spawnCommand } from '../../src/agents/spawn-command.js';
import { findSandboxTool } from '../../src/sandbox/sandbox-tool.js';
import { createSandboxWrapper } from '../../src/sandbox/sandbox-wrapper.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { makeTempRepo, type TempRepo } from '../support/temp-repo.js';

const REACH = fileURLToPath(new URL('../support/security-box-reach.py', import.meta.url));
const PYTHON = ['/usr/bin/python3', '/usr/local/bin/python3'].find((p) => existsSync(p));
const found = findSandboxTool();
const describeBoxed = found.ok && found.tool.kind === 'bwrap' && PYTHON ? describe : describe.skip;

let repo: TempRepo;
let home: string;
beforeEach(async () => {
  repo = await makeTempRepo();
  home = await makeTempDir('box-seccomp-home');
});
afterEach(async () => {
  await repo.cleanup();
  await removeTempDir(home);
});

function wrapper(): CommandWrapper {
  if (!found.ok) throw new Error('no sandbox here');
  return createSandboxWrapper(found.tool, {
    root: repo.dir,
    providers: ['claude'],
    binaries: [],
    env: [],
    allowRead: [],
    allowWrite: [],
    network: 'host',
  });
}

/** The same wrapper without the filter (`--seccomp 3` and its bytes) and with /proc left writable. */
function unprotected(wrap: CommandWrapper): CommandWrapper {
  return (command) => {
    const { fd3: _filter, ...wrapped } = wrap(command);
    const args: string[] = [];
    for (let i = 0; i < wrapped.args.length; i++) {
      const [flag, value] = [wrapped.args[i], wrapped.args[i + 1]];
      if (flag === '--seccomp' || (flag === '--remount-ro' && value === '/proc')) i++;
      else args.push(flag ?? '');
    }
    return { ...wrapped, args };
  };
}

function run(wrap: CommandWrapper, script: string): Promise<string> {
  const command: Command = {
    file: 'sh',
    args: ['-c', script],
    cwd: repo.dir,
    env: { PATH: process.env.PATH, HOME: home },
  };
  return new Promise((resolve) => {
    const child = spawnCommand(command, ['ignore', 'pipe', 'pipe'], wrap);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('close', () => resolve(out));
  });
}

/** A sleeping process stands for the agent; the program the agent ran reaches for it. */
const reachForSibling = () => `sleep 30 & target=$!; "${PYTHON}" "${REACH}" "$target"; kill "$target"`;

describeBoxed('the box between its own processes (seccomp, read-only /proc)', () => {
  it('refuses ptrace, process_vm_writev and /proc/<pid>/mem writes', async () => {
    const out = await run(wrapper(), reachForSibling());
    expect(out).toContain('ptrace: refused');
    expect(out).toContain('process_vm_writev: refused');
    expect(out).toContain('proc-mem: refused');
  });

  it('without the filter and the read-only /proc, the same program gets in each way', async () => {
    const out = await run(unprotected(wrapper()), reachForSibling());
    expect(out).toContain('ptrace: attached');
    expect(out).toContain('process_vm_writev: wrote');
    expect(out).toContain('proc-mem: wrote');
  });

  it('still runs what a story needs: a shell, git, node, a child reading its own /proc', async () => {
    const out = await run(
      wrapper(),
      'git status --porcelain >/dev/null && node -e "process.stdout.write(String(process.pid > 0))" && cat /proc/self/status | head -1',
    );
    expect(out).toContain('true');
    expect(out).toMatch(/Name:\s+(cat|head)/);
  });
});
