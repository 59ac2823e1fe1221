import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NameUse } from '../core/goal-run-name.js';
import { isValidPrdName, prdsDir, runDir, runFiles } from '../state/layout.js';
import { goalRunFiles, parseGoalProgress } from './progress-file.js';

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
