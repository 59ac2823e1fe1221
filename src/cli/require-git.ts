import { UsageError } from '../core/errors.js';
import { headSha, isGitRepo } from '../git/index.js';

/**
 * ralph keeps every story's work as commits and rolls failed attempts back
 * with git, so the commands that change a project need a repository. One
 * sentence instead of git's own `fatal:` line, and exit 2.
 */
export async function requireGitRepository(cwd: string, command: string): Promise<void> {
  if (await isGitRepo(cwd)) return;
  throw new UsageError(
    `${cwd} is not inside a git repository, and ${command} needs one (ralph keeps each story's work as git commits): run \`git init\` and make a first commit there`,
  );
}

/** Whether the repository at `cwd` has a commit yet (`ralph run` needs one to roll back to). */
export const hasCommits = async (cwd: string): Promise<boolean> => (await headSha(cwd)) !== null;
