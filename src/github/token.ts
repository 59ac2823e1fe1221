/** The token ralph calls GitHub with: `GH_TOKEN`, `GITHUB_TOKEN`, else the GitHub CLI's login. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface FoundToken {
  token: string;
  /** Where it came from, for messages (never the token itself). */
  from: 'GH_TOKEN' | 'GITHUB_TOKEN' | 'gh auth token';
}

/**
 * `GH_TOKEN`, then `GITHUB_TOKEN` (the names gh and GitHub Actions use),
 * then `gh auth token` for `host` (run directly, no shell). Null when none
 * gives one.
 */
export async function findGithubToken(
  env: NodeJS.ProcessEnv = process.env,
  host = 'github.com',
): Promise<FoundToken | null> {
  for (const name of ['GH_TOKEN', 'GITHUB_TOKEN'] as const) {
    const value = env[name]?.trim();
    if (value) return { token: value, from: name };
  }
  const args = ['auth', 'token', ...(host === 'github.com' ? [] : ['--hostname', host])];
  try {
    const { stdout } = await execFileAsync('gh', args, {
      env: { ...env, GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1' },
      timeout: 15_000,
    });
    const token = stdout.trim();
    return token ? { token, from: 'gh auth token' } : null;
  } catch {
    // gh missing, or not logged in: no token from it.
    return null;
  }
}
