import { ExitCode } from '../../core/errors.js';
import { formatUsd as money } from '../../core/money.js';
import { duration, firstLine, plural } from '../format.js';
import { type GoalRunTarget, readGoalRun } from '../goal-target.js';
import { print, printJson } from '../output.js';

/** `ralph report <goal run>`: every iteration with its mode, step, outcome, time, tokens and cost. */
export async function goalReportCommand(target: GoalRunTarget, opts: { json?: boolean }): Promise<number> {
  const { progress, summary } = await readGoalRun(target);
  const rows = progress.iterations.map((i) => ({
    iteration: i.iteration,
    mode: i.mode,
    stepId: i.stepId ?? null,
    outcome: i.outcome,
    durationMs: i.durationMs ?? 0,
    inputTokens: i.inputTokens ?? 0,
    outputTokens: i.outputTokens ?? 0,
    costUsd: i.costUsd ?? 0,
    summary: i.summary,
  }));
  const totals = {
    iterations: rows.length,
    durationMs: rows.reduce((sum, r) => sum + r.durationMs, 0),
    inputTokens: summary.inputTokens,
    outputTokens: summary.outputTokens,
    costUsd: summary.costUsd,
  };
  if (opts.json) {
    const json = { name: summary.name, kind: 'goal', iterations: rows, steps: summary.steps, totals };
    printJson(json);
    return ExitCode.Success;
  }
  print(
    `${'iter'.padStart(4)}  ${'mode'.padEnd(10)} ${'step'.padEnd(8)} ${'outcome'.padEnd(13)} ${'time'.padStart(8)} ${'tokens in/out'.padStart(17)} ${'cost'.padStart(8)}  summary`,
  );
  for (const r of rows) {
    print(
      `${String(r.iteration).padStart(4)}  ${r.mode.padEnd(10)} ${(r.stepId ?? '-').padEnd(8)} ${r.outcome.padEnd(13)} ${duration(r.durationMs).padStart(8)} ${`${r.inputTokens}/${r.outputTokens}`.padStart(17)} ${money(r.costUsd).padStart(8)}  ${firstLine(r.summary)}`,
    );
  }
  print(
    `steps: ${summary.done}/${summary.total} done · total: ${plural(totals.iterations, 'iteration')}, ${duration(totals.durationMs)}, ${totals.inputTokens}/${totals.outputTokens} tokens, ${money(totals.costUsd)}`,
  );
  return ExitCode.Success;
}
