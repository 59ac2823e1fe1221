import { relative } from 'node:path';
import { readRunStatus, type StatusQuestion } from '../../app/run-status.js';
import { nextRunReading } from '../../app/task-context.js';
import { ExitCode } from '../../core/errors.js';
import { describeForecast } from '../../core/forecast.js';
import { mainEditsLine } from '../../core/main-edits-line.js';
import { formatUsd } from '../../core/money.js';
import { parkedNote } from '../../core/parked-note.js';
import { stoppedUnexpectedly } from '../../core/run-phase.js';
import type { Story } from '../../core/types.js';
import { visibleLine } from '../../core/visible-text.js';
import { locateProject } from '../../state/project-root.js';
import type { RunState } from '../../state/run-state.js';
import { duration, firstLine, statusMark } from '../format.js';
import { findGoalRun } from '../goal-run-target.js';
import { openCommandTarget } from '../open-source-target.js';
import { print, printJson } from '../output.js';
import type { SourceFlags } from './source-options.js';

export async function statusCommand(
  target: string | undefined,
  opts: { json?: boolean } & SourceFlags,
): Promise<number> {
  const { root, inGit } = await locateProject(process.cwd());
  const goal = opts.source === undefined ? await findGoalRun(target, process.cwd(), root) : null;
  if (goal) return (await import('./goal-status.js')).goalStatusCommand(goal, opts);
  const opened = await openCommandTarget(target, opts, { knownRoot: root });
  // What the next run reads: the main checkout's stories with the run's statuses.
  const { prd, mainEdits } = opened.source
    ? { prd: opened.prd, mainEdits: null }
    : await nextRunReading(root, opened.target, opened.livePath, opened.prd);
  const ctx = { ...opened, prd };
  const status = await readRunStatus(ctx, inGit);
  const { run, running, interrupted, workers, cutShort, sandbox, parked, next, done, forecast, phase } =
    status;
  const asked = status.questions;
  const locked = sandbox ? `  🔒 ${sandbox} sandbox` : '';

  if (opts.json) {
    printJson({
      name: ctx.target.name,
      phase: phase.phase,
      inFlight: phase.inFlight,
      stoppedAt: phase.stoppedAt,
      format: ctx.prd.format,
      path: ctx.livePath,
      project: ctx.prd.project,
      done,
      total: ctx.prd.stories.length,
      mainEdits,
      stories: ctx.prd.stories.map((s) => ({
        ...storyJson(s, run, parked),
        waiting: s.status !== 'done' && asked.waiting.has(s.id),
        question: asked.latest.get(s.id) ?? null,
      })),
      next: next ? { id: next.id, title: next.title } : null,
      questions: asked.all,
      running,
      workers,
      verified: status.verified,
      sandbox,
      run: run ? runJson(run) : null,
      forecast,
    });
    return ExitCode.Success;
  }

  const shown = ctx.source?.remote ? ctx.livePath : relative(process.cwd(), ctx.livePath) || ctx.livePath;
  // One write for the whole listing: a line at a time, a PRD of thousands of stories took longer to print than to read.
  const out: string[] = [];
  out.push(`${ctx.target.name}: ${visibleLine(ctx.prd.project)} (${shown})`);
  if (mainEdits) out.push(mainEditsLine(mainEdits, relative(process.cwd(), ctx.target.taskPath)));
  for (const s of ctx.prd.stories) {
    const attempts = run?.stories[s.id]?.attempts;
    if (running?.storyId === s.id) {
      out.push(
        `  ● ${s.id}  ${visibleLine(s.title)}  (attempt ${running.attempt}, running ${duration(running.elapsedMs)})`,
      );
      continue;
    }
    const lane = workers.find((w) => w.id === s.id);
    if (lane) {
      out.push(
        `  ● ${s.id}  ${visibleLine(s.title)}  (attempt ${lane.attempt}, running ${duration(lane.elapsedMs)}, worker ${lane.worker})`,
      );
      continue;
    }
    const extra = attempts ? `  (${attempts} attempt${attempts === 1 ? '' : 's'})` : '';
    const waiting = s.status !== 'done' && asked.waiting.has(s.id);
    out.push(`  ${statusMark(s.status, parked.has(s.id), waiting)} ${s.id}  ${visibleLine(s.title)}${extra}`);
    const question = asked.latest.get(s.id);
    if (question && s.status !== 'done') out.push(...questionLines(question));
    if (parked.has(s.id) && s.status !== 'done' && !waiting) {
      const note = parkedNote(run?.stories[s.id]?.lastFailure, target ? `ralph run ${target}` : 'ralph run');
      out.push(...note.map((line) => `      ${line}`));
    }
  }
  out.push(
    `${done}/${ctx.prd.stories.length} done · next: ${next ? `${next.id} ${visibleLine(next.title)}` : 'none'}`,
  );
  if (forecast) out.push(`forecast: ${describeForecast(forecast)}`);
  if (running) {
    out.push(
      `running: ${running.storyId} attempt ${running.attempt} (iteration ${running.iteration}), for ${duration(running.elapsedMs)}${locked}`,
    );
  } else if (workers.length > 0) {
    const list = workers.map(
      (w) => `${w.id} on worker ${w.worker} (attempt ${w.attempt}, for ${duration(w.elapsedMs)})`,
    );
    out.push(`running: ${list.join(', ')}${locked}`);
  } else if (cutShort.length > 0) {
    out.push(
      `interrupted: the last run stopped with ${cutShort.map((r) => r.id).join(', ')} in flight; \`ralph run\` rolls them back and goes on`,
    );
  } else if (interrupted) {
    out.push(
      `interrupted: the last run stopped during ${interrupted.storyId} attempt ${interrupted.attempt}; \`ralph run\` rolls it back and goes on`,
    );
  }
  if (phase.phase === 'stopped-unexpectedly') out.push(stoppedUnexpectedly(phase.stoppedAt, phase.inFlight));
  if (phase.phase === 'waiting')
    out.push('waiting: the run waits out an outage or a limit before its next iteration');
  if (status.verified.length > 0) {
    out.push(`verified, waiting to land: ${status.verified.map((v) => `${v.id} (${v.branch})`).join(', ')}`);
  }
  if (run) {
    const t = run.totals;
    out.push(
      `run: ${t.iterations} iteration${t.iterations === 1 ? '' : 's'}, ${formatUsd(t.costUsd)}, ${t.inputTokens + t.outputTokens} tokens${run.stop && !running && workers.length === 0 ? `, stopped: ${run.stop.reason}` : ''}`,
    );
  }
  print(out.join('\n'));
  return ExitCode.Success;
}

/** Under a story: its question, and the answer or the command that gives one. */
function questionLines(q: StatusQuestion): string[] {
  const lines = [`      asks: ${firstLine(q.question)}`];
  if (q.answer) lines.push(`      answered: ${firstLine(q.answer.text)} (its next attempt gets it)`);
  else if (q.command) lines.push(`      answer with: ${q.command}`);
  return lines;
}

function storyJson(s: Story, run: RunState | null, parked: ReadonlySet<string>) {
  const record = run?.stories[s.id];
  return {
    id: s.id,
    title: s.title,
    status: s.status,
    passes: s.status === 'done',
    parked: parked.has(s.id),
    priority: s.priority,
    dependsOn: s.dependsOn,
    attempts: record?.attempts ?? 0,
    costUsd: record?.costUsd ?? 0,
  };
}

function runJson(run: RunState) {
  return { iteration: run.iteration, current: run.current, totals: run.totals, stop: run.stop ?? null };
}
