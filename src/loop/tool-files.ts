import { relative } from 'node:path';
import type { RunContext } from './context.js';

/** The tracked files the tool owns: the task file (or spec directory) and the progress file. */
export function toolPaths(ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>): string[] {
  // A spec directory that is the work tree itself would make every file the tool's: it is left out.
  return [relative(ctx.cwd, ctx.source.path), relative(ctx.cwd, ctx.progressPath)].filter((p) => p !== '');
}

/** Files the tool itself writes; the agent's edits to them are undone, not counted as its work. */
export function isToolFile(ctx: Pick<RunContext, 'cwd' | 'source' | 'progressPath'>, path: string): boolean {
  const owned = toolPaths(ctx);
  return owned.some((p) => path === p || path.startsWith(`${p}/`)) || path.startsWith('.ralph/');
}
