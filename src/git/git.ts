import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { ExitCode, RalphError } from '../core/errors.js';
import { hardenedArgs } from './hardened-args.js';
import { checkGitLayout } from './layout-guard.js';

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
 * Plain `child_process`: git runs many times per iteration and on every
 * command's start-up, where a process library's own loading and wiring showed.
 */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  try {
    // A git directory the agent re-pointed is refused before git reads any of it.
    checkGitLayout(options.cwd);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    // No git, a missing cwd or cancellation: there is no output to trust.
    const unusable = (reason: string) => reject(new GitError(args, options.cwd, null, reason));
    let child: ChildProcess;
    try {
      child = spawn('git', hardenedArgs(args), {
        cwd: options.cwd,
        env: gitEnv(options.env),
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      unusable(messageOf(error));
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    let failure: Error | undefined;
    child.on('error', (error) => {
      failure ??= error;
      // A child that never started has no streams to close.
      if (child.pid === undefined) unusable(`${error.message} (cwd: ${options.cwd})`);
    });
    child.on('close', (code, signal) => {
      const out = Buffer.concat(stdout).toString('utf8');
      const err = Buffer.concat(stderr).toString('utf8');
      if (code === null || failure) {
        unusable(err || (failure ? messageOf(failure) : `git was stopped by ${signal}`));
      } else if (code !== 0 && !options.allowFailure) {
        reject(new GitError(args, options.cwd, code, err));
      } else {
        resolve({ stdout: out, stderr: err, exitCode: code });
      }
    });
  });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

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

/**
 * `runGit` for the few places that cannot wait (a command about to start,
 * whose sandbox depends on the repository's layout): same environment, no stdin.
 */
export function runGitSync(args: readonly string[], options: { cwd: string }): GitResult {
  checkGitLayout(options.cwd);
  const run = spawnSync('git', hardenedArgs(args), {
    cwd: options.cwd,
    env: gitEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (run.error) throw new GitError(args, options.cwd, null, messageOf(run.error));
  return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

/** Runs git and returns its stdout, trimmed. Throws `GitError` on failure unless `allowFailure`. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.trim();
}
