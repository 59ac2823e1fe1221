import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { ExitCode, RalphError } from '../core/errors.js';
import type { RunEvent } from '../events/run-event.js';
import type { StatusEntry } from '../git/status.js';
import { worktreeGitDir } from '../git/worktree.js';
import { changedPaths, excludeInWorktree, skipWorktree, unstage } from '../git/worktree-environment.js';
import { readTextOrNull } from '../state/fs-util.js';

/**
 * What the worktree's setup command (`worktree.setup`, e.g. `npm install`)
 * wrote: the worktree's environment, not work. It never blocks a run, is
 * never committed, survives rollbacks and stays out of the agent's
 * `git add -A`, because git itself is told to leave it alone in that
 * worktree (see src/git/worktree-environment.ts).
 */
export interface SetupEnvironment {
  command: string;
  /** Tracked files setup changed, marked skip-worktree. */
  changed: string[];
  /** Untracked files and folders (`build/`) setup created, ignored in this worktree. */
  created: string[];
}

const RecordSchema = z.object({
  version: z.literal(1),
  command: z.string(),
  changed: z.array(z.string()),
  created: z.array(z.string()),
});

export interface SetupOutcome {
  /** The setup's output, when it ran now. */
  output: string | null;
  /** What setup made in this worktree, now or in an earlier run; null when it made nothing. */
  environment: SetupEnvironment | null;
}

/**
 * Runs `setup` unless it already succeeded in this worktree (the mark lives
 * in the worktree's git folder), and hides what it wrote. Every run renews
 * the hiding, so the user's own excludes file is read afresh.
 */
export async function setupOnce(
  dir: string,
  setup: string | null,
  emit?: (event: RunEvent) => void,
): Promise<SetupOutcome> {
  const gitDir = await worktreeGitDir(dir);
  const recordPath = path.join(gitDir, 'ralph-setup.json');
  const previous = await readRecord(recordPath);
  const mark = path.join(gitDir, 'ralph-setup-done');
  if (setup === null || setup.trim() === '' || existsSync(mark)) {
    if (previous !== null && previous.created.length > 0) await excludeInWorktree(dir, previous.created);
    return { output: null, environment: previous };
  }
  const before = new Set((await changedPaths(dir)).map((e) => e.path));
  emit?.({ type: 'setup-started', command: setup, cwd: dir });
  const result = await runSetup(dir, setup);
  emit?.({
    type: 'setup-finished',
    command: setup,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    outputTail: result.tail,
  });
  // Hidden even when setup failed: half an install is still not the agent's work, and the next run starts clean.
  const made = await madeBySetup(dir, before);
  const environment = merge(previous, setup, made);
  await skipWorktree(dir, environment.changed);
  if (environment.created.length > 0) await excludeInWorktree(dir, environment.created);
  await writeFile(recordPath, `${JSON.stringify({ version: 1, ...environment }, null, 2)}\n`);
  if (result.exitCode !== 0) {
    throw new RalphError(
      `worktree setup failed (exit ${result.exitCode}): ${setup}`,
      'setup-failed',
      ExitCode.WorkLeft,
      [...result.tail.split('\n'), `it runs again on the next \`ralph run\` in ${dir}`],
    );
  }
  await writeFile(mark, `${setup}\n`);
  return { output: result.output, environment: isEmpty(environment) ? null : environment };
}

/** What setup changed since `before`; anything it staged is unstaged first, so only the files tell. */
async function madeBySetup(dir: string, before: ReadonlySet<string>) {
  const fresh = (entries: StatusEntry[]) =>
    entries.filter((e) => !before.has(e.path) && !e.path.startsWith('.ralph/'));
  const staged = fresh(await changedPaths(dir)).filter((e) => e.code[0] !== ' ' && e.code[0] !== '?');
  await unstage(
    dir,
    staged.map((e) => e.path),
  );
  return fresh(await changedPaths(dir));
}

function merge(
  previous: SetupEnvironment | null,
  command: string,
  made: readonly { path: string; code: string }[],
): SetupEnvironment {
  const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort();
  return {
    command,
    changed: union(
      previous?.changed ?? [],
      made.filter((e) => e.code !== '??').map((e) => e.path),
    ),
    created: union(
      previous?.created ?? [],
      made.filter((e) => e.code === '??').map((e) => e.path),
    ),
  };
}

const isEmpty = (env: SetupEnvironment): boolean => env.changed.length === 0 && env.created.length === 0;

/** The record of an earlier setup; one that cannot be read is treated as none (setup's mark says whether to rerun). */
async function readRecord(file: string): Promise<SetupEnvironment | null> {
  const text = await readTextOrNull(file);
  if (text === null) return null;
  try {
    const parsed = RecordSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    const { version: _version, ...environment } = parsed.data;
    return isEmpty(environment) ? null : environment;
  } catch {
    return null;
  }
}

interface SetupResult {
  exitCode: number;
  durationMs: number;
  output: string;
  tail: string;
}

/** `sh -c <setup>`: the command is the user's own config, not task-file data, so a shell is right here. */
async function runSetup(cwd: string, command: string): Promise<SetupResult> {
  const started = Date.now();
  const result = await execa('sh', ['-c', command], { cwd, all: true, reject: false, stdin: 'ignore' });
  const output = typeof result.all === 'string' ? result.all : '';
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : 127;
  const tail = output.trimEnd().split('\n').slice(-SETUP_TAIL_LINES).join('\n');
  return { exitCode, durationMs: Date.now() - started, output, tail };
}

const SETUP_TAIL_LINES = 30;
