import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { NameUse } from '../core/goal-run-name.js';
import { isValidPrdName, prdsDir, runDir, runFiles, runsDir } from '../state/layout.js';
import { goalRunFiles, parseGoalProgress } from './progress-file.js';

/** Whether `.ralph/runs/<name>/` holds a goal run (its PROGRESS.yaml). */
export function isGoalRun(root: string, name: string): boolean {
  return isValidPrdName(name) && existsSync(goalRunFiles(runDir(root, name)).progress);
}

/** The goal runs of a project, by name, sorted. */
export async function listGoalRuns(root: string): Promise<string[]> {
  const entries = await readdir(runsDir(root), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && isGoalRun(root, e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * What `name` is used for here: a PRD (its folder, or a PRD run's state),
 * a goal run (with its goal text when its progress file reads), or nothing.
 */
export function nameUseIn(root: string, name: string): NameUse {
  if (!isValidPrdName(name)) return { kind: 'prd' };
  const dir = runDir(root, name);
  if (existsSync(path.join(prdsDir(root), name)) || existsSync(runFiles(dir).state)) return { kind: 'prd' };
  const progress = goalRunFiles(dir).progress;
  if (!existsSync(progress)) return { kind: 'free' };
  try {
    return { kind: 'goal', goal: parseGoalProgress(readFileSync(progress, 'utf8'), progress).goal };
  } catch {
    return { kind: 'goal' };
  }
}
