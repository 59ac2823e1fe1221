import { runGit } from './git.js';

export type PushResult = { ok: true; remote: string } | { ok: false; remote: string; message: string };

export async function hasRemote(cwd: string, remote: string): Promise<boolean> {
  return (await remoteUrl(cwd, remote)) !== null;
}

/** The URL git fetches `remote` from, or null when there is no such remote. */
export async function remoteUrl(cwd: string, remote: string): Promise<string | null> {
  const { exitCode, stdout } = await runGit(['remote', 'get-url', remote], { cwd, allowFailure: true });
  return exitCode === 0 ? stdout.trim() : null;
}

/**
 * `git push -u <remote> <branch>`. A failure (no such remote, rejected,
 * no credentials: prompts are disabled) is a result with git's own message,
 * not an exception: pushing is a courtesy after the work is done.
 */
export async function pushBranch(cwd: string, branch: string, remote = 'origin'): Promise<PushResult> {
  if (!(await hasRemote(cwd, remote))) {
    return {
      ok: false,
      remote,
      message: `no remote named ${remote}; add one with \`git remote add ${remote} <url>\``,
    };
  }
  const result = await runGit(['push', '--quiet', '-u', remote, branch], { cwd, allowFailure: true });
  if (result.exitCode === 0) return { ok: true, remote };
  const lines = result.stderr.trim().split('\n').filter(Boolean);
  return { ok: false, remote, message: lines.slice(-5).join('\n') || `git push exited ${result.exitCode}` };
}
