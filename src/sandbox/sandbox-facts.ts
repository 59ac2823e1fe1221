/**
 * The facts a command's sandbox is planned from, read from the disk and the
 * environment just before it starts: its checkout as git resolves it, the
 * agents' own directories, what must stay readable (the agents' installs,
 * Node, git config), and the sockets that carry the user's authority.
 * A little bookkeeping happens here too: a missing hooks directory or agent
 * state directory is made, so that it can be protected or kept.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnvPattern } from '../core/sandbox-env.js';
import { isWithin, type Mask, type SandboxFacts, type SandboxNetwork } from '../core/sandbox-plan.js';
import { type CheckoutLayout, readCheckoutLayout } from '../git/checkout-layout.js';
import type { Provider } from '../state/providers.js';
import { agentHome } from './agent-homes.js';

/** What a run's sandbox is made of, besides the command. */
export interface SandboxSettings {
  /** The project root: `allowRead`/`allowWrite` are relative to it; its `.ralph/` files are ralph's. */
  root: string;
  /** The run's own directory (`.ralph/runs/<name>`): readable inside (a hook reads its transcript there). */
  runDir?: string;
  /** Every agent the run may start (the primary and its fallbacks). */
  providers: readonly Provider[];
  /** Their binaries: the installs they live in are readable inside. */
  binaries: readonly string[];
  /** Variables passed in besides the base list and the agents' own: `sandbox.env`, `agent.env` names. */
  env: readonly EnvPattern[];
  allowRead: readonly string[];
  allowWrite: readonly string[];
  network: SandboxNetwork;
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/** A path as given and as its links resolve, those that exist. */
const spellings = (p: string): string[] =>
  [...new Set([path.resolve(p), real(p)])].filter((s) => existsSync(s));

/** `~/x` from home, a relative path from the project root. */
export function resolveUserPath(p: string, home: string, root: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(root, p);
}

/**
 * Where a binary's install lives: the folder holding its top `node_modules`
 * (an npm install: `lib/` of a global prefix), else its own folder (a
 * native build with its files beside it).
 */
export function installRoot(binary: string): string {
  const parts = binary.split(path.sep);
  const top = parts.indexOf('node_modules');
  return top > 0 ? parts.slice(0, top).join(path.sep) || path.sep : path.dirname(binary);
}

/** Node's own prefix (`…/v20.11.0` of `…/v20.11.0/bin/node`): its libraries and npm live there. */
function nodePrefix(execPath: string): string {
  const dir = path.dirname(execPath);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/** Sockets that act with the user's authority: ssh-agent, gpg-agent, the session bus, container daemons. */
function masksFor(env: NodeJS.ProcessEnv): Mask[] {
  const dirs = [
    typeof process.getuid === 'function' ? `/run/user/${process.getuid()}` : undefined,
    env.XDG_RUNTIME_DIR,
  ];
  const files = [
    env.SSH_AUTH_SOCK,
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/podman/podman.sock',
    '/run/containerd/containerd.sock',
  ];
  const found = (list: (string | undefined)[], kind: Mask['kind']): Mask[] =>
    list
      .filter((p): p is string => p !== undefined && p !== '' && existsSync(p))
      .map((p) => ({ path: real(p), kind }));
  const all = [...found(dirs, 'dir'), ...found(files, 'file')];
  return all.filter((m, i) => all.findIndex((o) => o.path === m.path) === i);
}

function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    // Not ours to make (a read-only mount): then it is neither kept nor needed.
  }
}

/** With `extensions.worktreeConfig`, git reads each checkout's `config.worktree`: made (empty) so it can be protected. */
function ensureWorktreeConfig(commonDir: string, gitDir: string): void {
  try {
    const config = path.join(commonDir, 'config');
    const text = existsSync(config) ? readFileSync(config, 'utf8') : '';
    const file = path.join(gitDir, 'config.worktree');
    if (/^\s*worktreeconfig\s*=\s*(true|yes|on|1)\s*$/im.test(text) && !existsSync(file)) {
      writeFileSync(file, '', { flag: 'wx' });
    }
  } catch {
    // Made meanwhile, or not ours to make: git then has none to read either.
  }
}

export interface ResolvedFacts {
  facts: SandboxFacts;
  /** The command's directory with its links resolved: where it starts inside. */
  cwd: string;
  /** The variables the command may see. */
  env: EnvPattern[];
  /** The agents' login files, copied back from the sandbox's copy of their state. */
  logins: string[];
}

/**
 * The layout of the checkout at `cwd`; for one not made yet (a dry run before
 * its worktree exists), the linked worktree git would make there.
 */
function layoutOf(cwd: string): CheckoutLayout | null {
  if (existsSync(cwd)) return readCheckoutLayout(cwd);
  let dir = path.dirname(cwd);
  while (!existsSync(dir)) dir = path.dirname(dir);
  const repo = readCheckoutLayout(dir);
  if (!repo) return null;
  const gitDir = path.join(repo.commonDir, 'worktrees', path.basename(cwd));
  return { toplevel: cwd, gitDir, commonDir: repo.commonDir, hooksDir: repo.hooksDir };
}

/**
 * `prepare`: make what must exist to be kept or protected (a missing hooks
 * directory, the agents' state directories). A dry run only describes.
 */
export function resolveFacts(
  settings: SandboxSettings,
  command: { cwd: string; env: NodeJS.ProcessEnv },
  scratch: string,
  prepare = true,
): ResolvedFacts {
  const cwd = real(command.cwd);
  const home = real(command.env.HOME || os.homedir());
  const layout = layoutOf(cwd);
  const homes = settings.providers.map((p) => agentHome(p, command.env, home));
  const user = (list: readonly string[]) => list.map((p) => resolveUserPath(p, home, settings.root));
  if (prepare) {
    if (layout) {
      ensureDir(layout.hooksDir);
      ensureWorktreeConfig(layout.commonDir, layout.gitDir);
    }
    for (const dir of [...homes.flatMap((h) => h.dirs), ...user(settings.allowWrite)]) ensureDir(dir);
  }
  const hidden = [home, scratch];
  const underHidden = (p: string) => hidden.some((h) => isWithin(p, h));
  const pathDirs = (command.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d !== '' && path.isAbsolute(d));
  const xdgConfig = command.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const read = [
    ...settings.binaries.flatMap((b) => [path.dirname(b), installRoot(real(b))]),
    nodePrefix(real(process.execPath)),
    ...pathDirs.filter(underHidden),
    path.join(home, '.gitconfig'),
    path.join(xdgConfig, 'git'),
    ...(command.env.GIT_CONFIG_GLOBAL ? [command.env.GIT_CONFIG_GLOBAL] : []),
    ...(settings.runDir ? [settings.runDir] : []),
    ...homes.flatMap((h) => h.readable),
    ...user(settings.allowRead),
  ];
  return {
    facts: {
      checkout: layout?.toplevel ?? cwd,
      git: layout ? { gitDir: layout.gitDir, commonDir: layout.commonDir, hooksDir: layout.hooksDir } : null,
      root: real(settings.root),
      home,
      scratch,
      agentPaths: homes.flatMap((h) => [...h.dirs, ...h.files]).flatMap(spellings),
      readPaths: read.flatMap(spellings),
      writePaths: user(settings.allowWrite).flatMap(spellings),
      masks: masksFor(command.env).filter((m) => !underHidden(m.path)),
      network: settings.network,
    },
    cwd,
    env: [...homes.flatMap((h) => h.env), ...settings.env],
    logins: homes.flatMap((h) => h.logins),
  };
}
