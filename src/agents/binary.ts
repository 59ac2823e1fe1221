/** Finding an agent binary and asking its version, without a shell. */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { systemErrorReason } from '../core/errors.js';
import { protectionRemoved } from '../core/protections.js';
import { type CommandWrapper, spawnCommand } from './spawn-command.js';

/** Why a path cannot be executed, in the operating system's words; null when it can. */
async function notExecutable(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return info.isDirectory() ? 'a directory, not a program' : 'not a regular file';
    await access(path, constants.X_OK);
    return null;
  } catch (error) {
    return systemErrorReason(error) ?? String(error);
  }
}

export type BinaryLookup = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The absolute path of an executable: a path (absolute, or relative to the
 * current directory) is checked as given; a bare name is looked up on PATH.
 * When there is none, why: the operating system's error for a path
 * (`no such file or directory (ENOENT)`, `permission denied (EACCES)`), or
 * that a bare name is not on PATH.
 */
export async function findBinary(binary: string, env: NodeJS.ProcessEnv): Promise<BinaryLookup> {
  if (binary === '') return { ok: false, reason: 'no binary named' };
  if (isAbsolute(binary) || binary.includes('/')) {
    const path = resolve(binary);
    const reason = await notExecutable(path);
    return reason === null ? { ok: true, path } : { ok: false, reason };
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    if ((await notExecutable(candidate)) === null) return { ok: true, path: candidate };
  }
  return { ok: false, reason: 'not on PATH' };
}

/** `findBinary`'s path, or undefined. */
export async function resolveBinary(binary: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const found = await findBinary(binary, env);
  return found.ok ? found.path : undefined;
}

export type VersionResult = { ok: true; version: string } | { ok: false; reason: string };

/** Runs `<binary> --version`; the version is the first x.y.z found, else the first output line. */
export function readVersion(
  binaryPath: string,
  env: NodeJS.ProcessEnv,
  box?: { wrap: CommandWrapper; cwd: string },
  timeoutMs = 15_000,
): Promise<VersionResult> {
  const fail = (detail: string): VersionResult => ({
    ok: false,
    reason: `\`${binaryPath} --version\` failed: ${detail}`,
  });
  const read = (out: string): VersionResult => {
    const text = out.trim();
    const semver = /\d+\.\d+\.\d+[\w.+-]*/.exec(text)?.[0];
    return { ok: true, version: semver ?? text.split('\n')[0] ?? '' };
  };
  if (box && !protectionRemoved('version-in-box'))
    return readVersionBoxed(binaryPath, env, box, timeoutMs, fail, read);
  return new Promise((done) => {
    execFile(
      binaryPath,
      ['--version'],
      { env, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) =>
        done(error ? fail(String(stderr).trim() || error.message) : read(String(stdout))),
    );
  });
}

/** `--version` inside the run's sandbox, started as the agent will be (`spawnCommand`: its own group, the filter on fd 3). */
function readVersionBoxed(
  binaryPath: string,
  env: NodeJS.ProcessEnv,
  box: { wrap: CommandWrapper; cwd: string },
  timeoutMs: number,
  fail: (detail: string) => VersionResult,
  read: (out: string) => VersionResult,
): Promise<VersionResult> {
  return new Promise((done) => {
    const child = spawnCommand(
      { file: binaryPath, args: ['--version'], cwd: box.cwd, env },
      ['ignore', 'pipe', 'pipe'],
      box.wrap,
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      done(fail(error.message));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code === 0 ? read(stdout) : fail(stderr.trim() || `exit ${code ?? 'by a signal'}`));
    });
  });
}
