import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getAdapter } from '../../agents/registry.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { parseRunEventLine, type RunEventRecord } from '../../events/run-event.js';
import { findProjectRoot } from '../../state/project-root.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { formatTranscript, iterationRecords } from '../../ui/transcript.js';
import { findGoalRun } from '../goal-target.js';
import { print, printData, printText } from '../output.js';

/**
 * The run's human-readable log; with `--iteration N` that iteration as a
 * readable transcript (from the run's events), or with `--raw` the agent's
 * stream for it, exactly as the agent printed it.
 */
export async function logsCommand(
  target: string | undefined,
  opts: { iteration?: number; raw?: boolean },
): Promise<number> {
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
  if (opts.raw) {
    printData(await readFile(file, 'utf8'));
    return ExitCode.Success;
  }
  const records = await readRecords(join(resolved.runDir, 'events.jsonl'));
  const mine = iterationRecords(records, opts.iteration);
  if (mine.length === 0) {
    throw new UsageError(
      `iteration ${opts.iteration} of ${resolved.name} has no events to tell (ralph logs --iteration ${opts.iteration} --raw shows its stream)`,
    );
  }
  // The session the iteration ran in: its agent and its checkout.
  const first = records.indexOf(mine[0] as RunEventRecord);
  const start = records.slice(0, first).findLast((r) => r.type === 'run-started');
  const context = start?.type === 'run-started' ? { cwd: start.cwd, agent: start.agent } : {};
  const lines = formatTranscript(mine, context, {
    resumeCommand: (agent, sessionId) => getAdapter(agent)?.resumeCommand(sessionId),
  });
  print(lines.join('\n'));
  return ExitCode.Success;
}

/** The run's events; a line this version cannot read is left out. */
async function readRecords(file: string): Promise<RunEventRecord[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    const read = parseRunEventLine(line);
    return read.ok ? [read.event] : [];
  });
}

async function readOrExplain(path: string, explanation: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(explanation);
  }
}
