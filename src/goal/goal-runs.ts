import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isValidPrdName, runDir, runsDir } from '../state/layout.js';
import { goalRunFiles } from './goal-run-files.js';

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
