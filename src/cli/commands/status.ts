import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { nextRunReading } from '../../app/task-context.js';
import { ExitCode } from '../../core/errors.js';
import { describeForecast, storiesLeft } from '../../core/forecast.js';
import { mainEditsLine } from '../../core/main-edits-line.js';
import { formatUsd } from '../../core/money.js';
import { parkedNote } from '../../core/parked-note.js';
import { inFlightOf, runPhase, stoppedUnexpectedly } from '../../core/run-phase.js';
import { selectNextStory } from '../../core/select.js';
import type { Story } from '../../core/types.js';
import { visibleLine } from '../../core/visible-text.js';
import { parallelActivity } from '../../parallel/activity.js';
import { lastSession } from '../../state/event-log.js';
import { runFiles } from '../../state/layout.js';
import type { LockStatus } from '../../state/lock.js';
import { locateProject } from '../../state/project-root.js';
import { runForecast } from '../../state/run-forecast.js';
import type { CurrentAttempt, RunState } from '../../state/run-state.js';
import { duration, firstLine, statusMark } from '../format.js';
import { findGoalRun } from '../goal-run-target.js';
import { openCommandTarget } from '../open-source-target.js';
import { print, printJson } from '../output.js';
import type { SourceFlags } from './source-options.js';

/** The attempt a live run is on: the run state names it, the lock says whether that run is still going. */
interface Running extends CurrentAttempt {
  elapsedMs: number;
  pid: number;
}

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
  const run = await runStateIn(ctx.target.runDir);
  const lock = await lockIn(ctx.target.runDir);
  const running: Running | null =
    run?.current && lock.kind === 'held' && lock.info
      ? { ...run.current, elapsedMs: Date.now() - Date.parse(run.current.startedAt), pid: lock.info.pid }
      : null;
  // A current attempt with no live run: the last run died mid-attempt, and the next `ralph run` recovers it.
  const interrupted = running === null && lock.kind !== 'held' ? (run?.current ?? null) : null;
  // A parallel run's attempts in flight: live while its lock is held, else left by a run that died.
  const activity = await parallelActivity(ctx.root, ctx.target.name, run, inGit);
  const workers =
    lock.kind === 'held'
      ? activity.running.map((r) => ({ ...r, elapsedMs: Date.now() - Date.parse(r.startedAt) }))
      : [];
  const cutShort = lock.kind === 'held' ? [] : activity.running;
  // The live run's sandbox, as its lock says.
  const sandbox = lock.kind === 'held' ? (lock.info?.sandbox ?? null) : null;
  const locked = sandbox ? `  🔒 ${sandbox} sandbox` : '';
  const parked = new Set(Object.entries(run?.stories ?? {}).flatMap(([id, s]) => (s.parked ? [id] : [])));
  const asked = await questionsIn(ctx.target.runDir, ctx.target.name);
  const selection = selectNextStory(ctx.prd.stories, { parked, waiting: asked.waiting });
  const next = selection.kind === 'story' ? selection.story : null;
  const done = ctx.prd.stories.filter((s) => s.status === 'done').length;
  const forecast = runForecast(run, storiesLeft(ctx.prd.stories, {}, parked), Math.max(1, workers.length));
  const phase = await phaseOf(ctx.target.runDir, run, lock, done === ctx.prd.stories.length && done > 0);

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
      verified: activity.verified,
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
  if (activity.verified.length > 0) {
    out.push(
      `verified, waiting to land: ${activity.verified.map((v) => `${v.id} (${v.branch})`).join(', ')}`,
    );
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

interface StatusQuestion {
  id: string;
  storyId?: string;
  question: string;
  askedAt: string;
  answer: { text: string; at: string } | null;
  /** For a question still open: the command that answers it. */
  command?: string;
}

/** Under a story: its question, and the answer or the command that gives one. */
function questionLines(q: StatusQuestion): string[] {
  const lines = [`      asks: ${firstLine(q.question)}`];
  if (q.answer) lines.push(`      answered: ${firstLine(q.answer.text)} (its next attempt gets it)`);
  else if (q.command) lines.push(`      answer with: ${q.command}`);
  return lines;
}

/** The run's questions: every one (with answers), each story's latest, and the stories that wait. */
async function questionsIn(runDir: string, run: string) {
  const none = {
    all: [] as StatusQuestion[],
    latest: new Map<string, StatusQuestion>(),
    waiting: new Set<string>(),
  };
  if (!existsSync(join(runDir, 'questions.json'))) return none;
  const { listQuestions } = await import('../../state/questions.js');
  const { answerCommand, waitingStories } = await import('../../core/questions.js');
  const questions = await listQuestions(runDir);
  const all: StatusQuestion[] = questions.map((q) => ({
    id: q.id,
    ...(q.storyId !== undefined ? { storyId: q.storyId } : {}),
    question: q.question,
    askedAt: q.askedAt,
    answer: q.answer ?? null,
    ...(q.answer ? {} : { command: answerCommand(run, q.id) }),
  }));
  const latest = new Map<string, StatusQuestion>();
  for (const q of all) if (q.storyId !== undefined) latest.set(q.storyId, q);
  return { all, latest, waiting: waitingStories(questions) };
}

// The readers of the run state and the lock validate with zod, a large part of
// this command's start-up; a PRD that never ran has neither file to read.

async function runStateIn(runDir: string): Promise<RunState | null> {
  const file = join(runDir, 'state.json');
  if (!existsSync(file)) return null;
  return (await import('../../state/run-state.js')).readRunState(file);
}

async function lockIn(runDir: string): Promise<LockStatus> {
  const file = join(runDir, 'lock');
  if (!existsSync(file)) return { kind: 'free' };
  return (await import('../../state/lock.js')).inspectLock(file);
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

/** The run's phase in the page's words (core/run-phase.ts), with what a run that died had in flight and when. */
async function phaseOf(runDir: string, run: RunState | null, lock: LockStatus, allDone: boolean) {
  const session = await lastSession(runFiles(runDir).events);
  const inFlight = inFlightOf(run);
  const phase = runPhase({
    live: lock.kind === 'held',
    waiting: session.waiting,
    inFlight,
    sessionOpen: session.open,
    allDone,
    stopped: run?.stop !== undefined,
    invalid: false,
  });
  const stoppedAt = phase === 'stopped-unexpectedly' ? (session.lastAt ?? run?.updatedAt ?? null) : null;
  return { phase, inFlight: lock.kind === 'held' || stoppedAt !== null ? inFlight : [], stoppedAt };
}
