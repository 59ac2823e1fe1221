/**
 * The TUI's `d` on work not yet verified: everything the attempt in flight
 * changed since it began (its commits, then what is not committed yet), so
 * an agent that has committed but not been judged still shows its work.
 */
import { runGit } from '../git/git.js';

/**
 * Git's output, or its error message as the text to show. Through `runGit`, as
 * all of ralph's git: the checkout is the agent's, so its hooks, fsmonitor,
 * diff drivers and a re-pointed git directory are never honoured here either.
 */
export async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const result = await runGit(args, { cwd, allowFailure: true });
    return result.exitCode === 0
      ? result.stdout
      : result.stderr || `git ${args[0]} failed (exit ${result.exitCode})`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface AttemptStart {
  /** What it is, e.g. `US-002 attempt 1` or `iteration 3`. */
  label: string;
  /** HEAD when it began (the run state's `current.headBefore`). */
  headBefore: string;
}

/** Since the attempt's start when one is in flight, else the checkout's uncommitted changes. */
export async function workInProgress(cwd: string, attempt: AttemptStart | null): Promise<string> {
  const untracked = (await git(cwd, ['ls-files', '--others', '--exclude-standard'])).trim();
  const untrackedLines = untracked === '' ? [] : ['', 'Not tracked yet:', ...untracked.split('\n')];
  const uncommitted = await git(cwd, ['diff', 'HEAD']);
  if (attempt === null) return [uncommitted.trimEnd(), ...untrackedLines].join('\n').trim();
  const range = `${attempt.headBefore}..HEAD`;
  const count = Number((await git(cwd, ['rev-list', '--count', range])).trim()) || 0;
  const commits = count === 0 ? '' : await git(cwd, ['log', '--reverse', '--stat', '--patch', range]);
  const head = `${attempt.label}, since ${attempt.headBefore.slice(0, 7)}: ${count} commit${count === 1 ? '' : 's'}${uncommitted.trim() === '' && untracked === '' ? '' : ', and changes not committed yet'}`;
  return [
    head,
    ...(commits.trim() === '' ? [] : ['', commits.trimEnd()]),
    ...(uncommitted.trim() === '' ? [] : ['', 'Not committed yet:', uncommitted.trimEnd()]),
    ...untrackedLines,
  ].join('\n');
}
