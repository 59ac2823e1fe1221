/** Finding an agent binary and asking its version, without a shell. */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of an executable: a path (absolute, or relative to the
 * current directory) is checked as given; a bare name is looked up on PATH.
 */
export async function resolveBinary(binary: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (binary === '') return undefined;
  if (isAbsolute(binary) || binary.includes('/')) {
    const path = resolve(binary);
    return (await isExecutableFile(path)) ? path : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export type VersionResult = { ok: true; version: string } | { ok: false; reason: string };

/** Runs `<binary> --version`; the version is the first x.y.z found, else the first output line. */
export function readVersion(
  binaryPath: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 15_000,
): Promise<VersionResult> {
  return new Promise((done) => {
    execFile(
      binaryPath,
      ['--version'],
      { env, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) {
          const detail = String(stderr).trim() || error.message;
          done({ ok: false, reason: `\`${binaryPath} --version\` failed: ${detail}` });
          return;
        }
        const out = String(stdout).trim();
        const semver = /\d+\.\d+\.\d+[\w.+-]*/.exec(out)?.[0];
        done({ ok: true, version: semver ?? out.split('\n')[0] ?? '' });
      },
    );
  });
}
