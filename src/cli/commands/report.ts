import { join } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatUsd as money } from '../../core/money.js';
import { visibleLine } from '../../core/visible-text.js';
import { type RunState, readRunState } from '../../state/run-state.js';
import { duration } from '../format.js';
import { findGoalRun } from '../goal-target.js';
import { openTaskContext } from '../open-target.js';
import { print, printJson } from '../output.js';
import { goalReportCommand } from './goal-report.js';

interface ReportRow {
  id: string;
  title: string;
  status: string;
  attempts: number;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The per-story receipt: attempts (retries included), time, tokens and cost. */
export async function reportCommand(target: string | undefined, opts: { json?: boolean }): Promise<number> {
  const goal = await findGoalRun(target);
  if (goal) return goalReportCommand(goal, opts);
  const ctx = await openTaskContext(target);
  const run = await readRunState(join(ctx.target.runDir, 'state.json'));
  const rows: ReportRow[] = ctx.prd.stories.map((s) => {
    const r = run?.stories[s.id];
    return {
      id: s.id,
      title: s.title,
      status: r?.parked && s.status !== 'done' ? 'parked' : s.status,
      attempts: r?.attempts ?? 0,
      durationMs: r?.durationMs ?? 0,
      inputTokens: r?.inputTokens ?? 0,
      outputTokens: r?.outputTokens ?? 0,
      costUsd: r?.costUsd ?? 0,
    };
  });
  const totals = totalsOf(run);
  if (opts.json) {
    printJson({ name: ctx.target.name, stories: rows, totals });
    return ExitCode.Success;
  }
  const idWidth = Math.max(5, ...rows.map((r) => r.id.length));
  print(
    `${'story'.padEnd(idWidth)}  ${'status'.padEnd(11)} ${'tries'.padStart(5)} ${'time'.padStart(8)} ${'tokens in/out'.padStart(17)} ${'cost'.padStart(8)}  title`,
  );
  for (const r of rows) {
    print(
      `${r.id.padEnd(idWidth)}  ${r.status.padEnd(11)} ${String(r.attempts).padStart(5)} ${duration(r.durationMs).padStart(8)} ${`${r.inputTokens}/${r.outputTokens}`.padStart(17)} ${money(r.costUsd).padStart(8)}  ${visibleLine(r.title)}`,
    );
  }
  print(
    `total: ${totals.iterations} iterations, ${duration(totals.durationMs)}, ${totals.inputTokens}/${totals.outputTokens} tokens, ${money(totals.costUsd)}`,
  );
  return ExitCode.Success;
}

function totalsOf(run: RunState | null) {
  const durationMs = Object.values(run?.stories ?? {}).reduce((sum, s) => sum + s.durationMs, 0);
  return {
    iterations: run?.totals.iterations ?? 0,
    durationMs,
    inputTokens: run?.totals.inputTokens ?? 0,
    outputTokens: run?.totals.outputTokens ?? 0,
    costUsd: run?.totals.costUsd ?? 0,
  };
}
