/**
 * Which sandbox this machine has, and whether it works: bubblewrap on Linux
 * (tried once with the very namespaces a run uses, since a kernel or a
 * container may refuse them), sandbox-exec on macOS. `ralph doctor` says
 * what was found; `--sandbox` refuses to start without one.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BWRAP_ISOLATION } from '../core/bwrap-args.js';

export type SandboxKind = 'bwrap' | 'sandbox-exec';

export interface SandboxTool {
  kind: SandboxKind;
  path: string;
}

export type SandboxAvailability =
  | { ok: true; tool: SandboxTool; version: string | null }
  | {
      ok: false;
      kind: SandboxKind | null;
      /** What is missing or refused, to follow "--sandbox needs …". */
      reason: string;
      /** How to get it working. */
      fix: string;
    };

const INSTALL_BWRAP =
  'install it with your package manager (apt-get install bubblewrap, dnf install bubblewrap or pacman -S bubblewrap)';
const ALLOW_USERNS =
  'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap; in a container, start it with user namespaces allowed)';
const PROBE_TIMEOUT_MS = 10_000;

/** The sandbox a platform uses, or null where ralph has none. */
export function sandboxKindFor(platform: NodeJS.Platform): SandboxKind | null {
  if (platform === 'linux') return 'bwrap';
  if (platform === 'darwin') return 'sandbox-exec';
  return null;
}

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** bwrap's first complaint, e.g. "setting up uid map: Permission denied". */
const firstLine = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.replace(/^bwrap: /, '').trim())
    .find((l) => l !== '') ?? 'it exited with an error';

function probeBwrap(path: string, env: NodeJS.ProcessEnv): SandboxAvailability {
  const args = [...BWRAP_ISOLATION, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'];
  const run = spawnSync(path, args, { env, encoding: 'utf8', timeout: PROBE_TIMEOUT_MS });
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : firstLine(run.stderr);
    return {
      ok: false,
      kind: 'bwrap',
      reason: `bubblewrap (${path}) to create its namespaces, which this system refuses (${why})`,
      fix: ALLOW_USERNS,
    };
  }
  const version = spawnSync(path, ['--version'], { env, encoding: 'utf8', timeout: PROBE_TIMEOUT_MS });
  const found = /\d+\.\d+(\.\d+)?/.exec(version.stdout ?? '')?.[0] ?? null;
  return { ok: true, tool: { kind: 'bwrap', path }, version: found };
}

function findBwrap(env: NodeJS.ProcessEnv): SandboxAvailability {
  const path = onPath('bwrap', env);
  if (path === null) {
    return {
      ok: false,
      kind: 'bwrap',
      reason: 'bubblewrap (bwrap), which is not on PATH',
      fix: INSTALL_BWRAP,
    };
  }
  return probeBwrap(path, env);
}

function findSandboxExec(env: NodeJS.ProcessEnv): SandboxAvailability {
  const path = executable('/usr/bin/sandbox-exec') ? '/usr/bin/sandbox-exec' : onPath('sandbox-exec', env);
  if (path === null) {
    return {
      ok: false,
      kind: 'sandbox-exec',
      reason: 'sandbox-exec, which is not in /usr/bin or on PATH',
      fix: 'it ships with macOS; check that /usr/bin/sandbox-exec has not been removed',
    };
  }
  const run = spawnSync(path, ['-p', '(version 1)(allow default)', '--', 'true'], {
    env,
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (run.error || run.status !== 0) {
    return {
      ok: false,
      kind: 'sandbox-exec',
      reason: `sandbox-exec (${path}) to apply a profile, which it refused (${run.error?.message ?? firstLine(run.stderr)})`,
      fix: 'run ralph outside another sandbox (sandbox-exec cannot nest)',
    };
  }
  return { ok: true, tool: { kind: 'sandbox-exec', path }, version: null };
}

const found = new Map<string, SandboxAvailability>();

/** The sandbox here, tried once per process (per PATH). */
export function findSandboxTool(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): SandboxAvailability {
  const key = `${platform}\0${env.PATH ?? ''}`;
  const known = found.get(key);
  if (known) return known;
  const kind = sandboxKindFor(platform);
  const result: SandboxAvailability =
    kind === 'bwrap'
      ? findBwrap(env)
      : kind === 'sandbox-exec'
        ? findSandboxExec(env)
        : {
            ok: false,
            kind: null,
            reason: `a sandbox ralph can drive, and it has none for ${platform}`,
            fix: 'run it on Linux (bubblewrap) or macOS (sandbox-exec), e.g. in a Linux VM or container',
          };
  found.set(key, result);
  return result;
}

/** "--sandbox needs …; …": one sentence, with how to get it. */
export const unavailableSentence = (a: Extract<SandboxAvailability, { ok: false }>): string =>
  `--sandbox needs ${a.reason}: ${a.fix}, or run without --sandbox`;
