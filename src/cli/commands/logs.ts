import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { findProjectRoot } from '../../state/project-root.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { findGoalRun } from '../goal-target.js';
import { printData, printText } from '../output.js';

/**
 * The run's human-readable log, or with `--iteration N` the agent's raw
 * stream for that iteration, exactly as the agent printed it.
 */
export async function logsCommand(target: string | undefined, opts: { iteration?: number }): Promise<number> {
  const goal = await findGoalRun(target);
  const resolved = goal ?? (await resolveTarget(await findProjectRoot(process.cwd()), target));
  if (opts.iteration === undefined) {
    printText(await readOrExplain(join(resolved.runDir, 'ralph.log'), `no log yet for ${resolved.name}`));
    return ExitCode.Success;
  }
  const dir = join(resolved.runDir, 'iterations');
  const file = join(dir, `${opts.iteration}.jsonl`);
  const available = await readdir(dir).catch(() => [] as string[]);
  if (!available.includes(`${opts.iteration}.jsonl`)) {
    const numbers = available
      .map((f) => Number.parseInt(f, 10))
      .filter(Number.isInteger)
      .sort((a, b) => a - b);
    throw new UsageError(
      `no iteration ${opts.iteration} for ${resolved.name}${numbers.length ? ` (iterations: ${numbers.join(', ')})` : ''}`,
    );
  }
  printData(await readFile(file, 'utf8'));
  return ExitCode.Success;
}

async function readOrExplain(path: string, explanation: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(explanation);
  }
}
