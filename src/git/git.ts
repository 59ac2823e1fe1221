import { execa } from 'execa';
import { ExitCode, RalphError } from '../core/errors.js';

export interface GitOptions {
  cwd: string;
  /** Return the output of a non-zero exit instead of throwing. Spawn failures still throw. */
  allowFailure?: boolean;
  /** Extra environment, e.g. `GIT_INDEX_FILE` for work on a private index. */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A git command that failed; `stderr` is git's own explanation. */
export class GitError extends RalphError {
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly gitExitCode: number | null,
    readonly stderr: string,
  ) {
    const detail = stderr.trim().split('\n').filter(Boolean);
    super(
      `git ${args.join(' ')} failed${gitExitCode === null ? '' : ` (exit ${gitExitCode})`}${detail[0] ? `: ${detail[0]}` : ''}`,
      'git',
      ExitCode.WorkLeft,
      // The first line is already in the message.
      detail.slice(1),
    );
    this.name = 'GitError';
  }
}

/**
 * The one place git is spawned: an argument array (never a shell string), no
 * stdin, and no credential or editor prompt that could hang an unattended run.
 */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await execa('git', args, {
    cwd: options.cwd,
    env: gitEnv(options.env),
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    stripFinalNewline: false,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
  const stdout = typeof result.stdout === 'string' ? result.stdout : '';
  const stderr = typeof result.stderr === 'string' ? result.stderr : '';
  if (typeof result.exitCode !== 'number') {
    // Spawn error (no git, missing cwd) or cancellation: there is no output to trust.
    throw new GitError(
      args,
      options.cwd,
      null,
      stderr || (result.shortMessage ?? result.message ?? 'git could not be run'),
    );
  }
  if (result.exitCode !== 0 && !options.allowFailure) {
    throw new GitError(args, options.cwd, result.exitCode, stderr);
  }
  return { stdout, stderr, exitCode: result.exitCode };
}

// Set by git for hooks and aliases: inherited, they would point every command at that repository, not `cwd`.
const LOCATING = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_PREFIX',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
];

function gitEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of LOCATING) delete env[key];
  return {
    ...env,
    ...extra,
    GIT_TERMINAL_PROMPT: '0',
    // Reads such as `git status` must not take index.lock while an agent is working.
    GIT_OPTIONAL_LOCKS: '0',
  };
}

/** Runs git and returns its stdout, trimmed. Throws `GitError` on failure unless `allowFailure`. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.trim();
}
