import { relative } from 'node:path';
import { runGit } from '../git/index.js';
import type { RunContext } from './context.js';

/** The tracked files the tool owns: the task file (or spec directory) and the progress file. */
export function toolPaths(ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>): string[] {
  return [relative(ctx.cwd, ctx.source.path) || '.', relative(ctx.cwd, ctx.progressPath)];
}

/** Files the tool itself writes; the agent's edits to them are undone, not counted as its work. */
export function isToolFile(ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>, path: string): boolean {
  const [task, progress] = toolPaths(ctx);
  return path === task || path.startsWith(`${task}/`) || path === progress || path.startsWith('.ralph/');
}

/**
 * The tool's record wins (design principle 1): if the agent edited the task
 * file or the progress file, committed or not, put them back as they were
 * when the attempt began. Returns the paths that were restored.
 */
export async function restoreToolFiles(
  ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>,
  headBefore: string,
): Promise<string[]> {
  const restored: string[] = [];
  for (const path of toolPaths(ctx)) {
    const tracked = await runGit(['cat-file', '-e', `${headBefore}:${path}`], {
      cwd: ctx.cwd,
      allowFailure: true,
    });
    if (tracked.exitCode !== 0) continue;
    const diff = await runGit(['diff', '--quiet', headBefore, '--', path], {
      cwd: ctx.cwd,
      allowFailure: true,
    });
    if (diff.exitCode === 0) continue;
    await runGit(['restore', `--source=${headBefore}`, '--staged', '--worktree', '--', path], {
      cwd: ctx.cwd,
    });
    restored.push(path);
  }
  return restored;
}
