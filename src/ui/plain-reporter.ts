import type { AgentEvent, RetryEvent } from '../agents/agent-event.js';
import { describeForecast } from '../core/forecast.js';
import { describeMainEdits } from '../core/main-edits-line.js';
import { formatUsd as money } from '../core/money.js';
import { visibleLine, visibleText } from '../core/visible-text.js';
import type { EventOf, RunEvent } from '../events/run-event.js';
import { describeHookEvent } from './hook-lines.js';
import { duration } from './tui/model/format.js';

export interface PlainReporterOptions {
  /** Also show the agent's own text and tool results (`-v`). */
  verbose: boolean;
  write: (line: string) => void;
}

const clock = (date = new Date()): string => date.toISOString().slice(11, 19);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/**
 * Turns the engine's events into timestamped human-readable lines, for the
 * terminal and `ralph.log` alike. Titles, reasons and the agent's and gates'
 * output are others' text: their control characters go out as symbols.
 */
export function createPlainReporter(options: PlainReporterOptions): (event: RunEvent) => void {
  const line = (text: string) => options.write(visibleText(`[${clock()}] ${text}`));
  return (event) => {
    const text = describeEvent(event, options.verbose);
    if (text !== null) line(`${laneOf(event)}${text}`);
  };
}

/** A parallel run's events say where they happened: `[w2 US-003] `, `[merge US-001] `. */
function laneOf(event: RunEvent): string {
  if (event.worker === undefined) return '';
  const lane = event.worker === 'merge' ? 'merge' : `w${event.worker}`;
  return `[${lane}${event.storyId ? ` ${event.storyId}` : ''}] `;
}

export function describeEvent(event: RunEvent, verbose: boolean): string | null {
  switch (event.type) {
    case 'run-started':
      if (event.goal) return describeGoalStart(event, event.goal);
      return `${event.resumed ? 'resuming' : 'starting'} ${event.name} (${event.project}): ${event.remaining} stor${event.remaining === 1 ? 'y' : 'ies'} left, agent ${event.agent}${sandboxNote(event)}, ${iterationLimit(event)}`;
    case 'lock-taken-over':
      return describeTakeover(event);
    case 'recovered':
      return event.storyId === undefined
        ? `recovered: the interrupted iteration ${event.iteration} was rolled back to ${event.to?.slice(0, 7)}`
        : describeRecovery(event.action, event.storyId);
    case 'iteration-started':
      if (event.mode !== undefined)
        return `iteration ${event.iteration}/${event.maxIterations}: ${event.mode}${event.step ? ` ${event.step.id}: ${firstLine(event.step.prompt.trim())}` : ''}`;
      return `iteration ${event.iteration}/${event.lastIteration ?? event.maxIterations}: ${event.storyId} ${visibleLine(event.title ?? '')} (attempt ${event.attempt}/${event.maxAttempts})`;
    case 'agent-event':
      return describeAgentEvent(event.event, verbose);
    case 'agent-exited':
      return event.stopReason === 'exited'
        ? verbose
          ? `  agent exited ${event.exitCode} after ${seconds(event.durationMs)}`
          : null
        : `  agent stopped: ${event.stopReason} after ${seconds(event.durationMs)}`;
    case 'signal':
      return `  signal ${event.signal.toUpperCase()} ${event.detail}`;
    case 'check-started':
      return `  check: ${event.command}`;
    case 'check-finished': {
      const line = `  check ${event.exitCode === 0 ? 'passed' : `failed (exit ${event.exitCode})`}: ${event.command} ${seconds(event.durationMs)}`;
      // A failed gate shows its last lines (all it kept with -v, as the next attempt's prompt does):
      // why the story failed or was parked is on the screen without -v, as in the TUI and `ralph logs`.
      const said = event.outputTail.trimEnd();
      if (event.exitCode === 0 || said === '') return line;
      return `${line}\n${indent(verbose ? said : lastLines(said, GATE_LINES))}`;
    }
    case 'story-passed':
      return `✓ ${event.storyId} passed on attempt ${event.attempt}${event.afterResolution ? ', landed after resolution' : ''}: ${event.commits.map((c) => c.sha.slice(0, 7)).join(', ')} (${money(event.costUsd)}, ${seconds(event.durationMs)})${event.forecast ? ` — ${describeForecast(event.forecast)}` : ''}`;
    case 'attempt-failed':
      if (event.storyId === undefined)
        return `✗ iteration ${event.iteration} failed (${event.kind}): ${firstLine(event.reason.trim())} [${event.attempt}/${event.maxAttempts} in a row]`;
      return `✗ ${event.storyId} attempt ${event.attempt}/${event.maxAttempts} failed (${event.kind}): ${firstLine(event.reason)}${event.willRetry ? ' — will retry' : ''}`;
    case 'rolled-back':
      return `  rolled back to ${event.to.slice(0, 7)}${event.rescueRef ? ` (${event.storyId === undefined ? 'kept' : 'attempt kept'} at ${event.rescueRef})` : ''}`;
    case 'story-parked':
      if (event.attempts === 0)
        return `✗ ${event.storyId} parked before an attempt: ${firstLine(event.reason)}`;
      return `✗ ${event.storyId} parked after ${plural(event.attempts, 'attempt')}: ${firstLine(event.reason)}`;
    case 'task-file-restored':
      return `  the agent edited ${event.path}; restored the tool's copy`;
    case 'attempt-undone':
      return `  ⚠ ${event.storyId ? `${event.storyId}: ` : ''}${event.what}`;
    case 'rate-limited':
      return `  rate limited: ${firstLine(event.message)}; waiting ${seconds(event.waitMs)}${event.resetsAt ? ` (resets ${event.resetsAt})` : ''}`;
    case 'usage':
      return verbose
        ? `  usage: ${event.inputTokens} in, ${event.outputTokens} out, ${money(event.costUsd)}`
        : null;
    case 'stop-requested':
      if (event.from !== undefined)
        return event.how === 'graceful'
          ? `paused from the ${event.from}: stopping after this iteration`
          : `stopped from the ${event.from}: killing the agent`;
      return event.how === 'graceful'
        ? 'stopping after this iteration (Ctrl-C again to stop now)'
        : 'stopping now: killing the agent';
    case 'agent-switched':
      return `  ${event.from} is rate limited (${firstLine(event.reason)}); switching to ${event.to}`;
    case 'max-iterations-changed':
      return `iteration limit now ${event.maxIterations}`;
    case 'hook-started':
    case 'hook-finished':
    case 'hook-committed':
    case 'hook-not-landed':
      return describeHookEvent(event, verbose);
    case 'parallel-started':
      return `${event.workers} workers; stories land on ${event.prdBranch} one at a time`;
    case 'story-verified':
      return `verified on ${event.branch} (attempt ${event.attempt}, ${event.commits} commit${event.commits === 1 ? '' : 's'}); waiting to land`;
    case 'integration-started':
      return `landing on ${event.onto}${event.queued > 0 ? ` (${event.queued} more waiting)` : ''}`;
    case 'integration-failed':
      // A race is said by the resolution's own line, which follows.
      if (event.next === 'resolve') return null;
      return event.kind === 'conflict'
        ? `conflict with ${event.landedMeanwhile.join(', ') || 'the new tip'} in ${event.files.join(', ')}; not landed`
        : `the checks failed on the new tip; not landed`;
    case 'resolution-started':
      return `${event.storyId} waits to land (${describeRace(event)}); resolving with ${event.agent}`;
    case 'resolution-finished':
      if (!event.resolved) return `resolution refused: ${firstLine(event.reason ?? 'no reason given')}`;
      return event.byAgent ? 'resolved on the new tip; landing' : 'git combined it with the new tip; landing';
    case 'story-requeued':
      return `${event.storyId} requeued (${event.requeues}/${event.maxRequeues}): redone from the new tip, not counted as a failed attempt`;
    case 'run-finished':
      if (event.goal) return describeGoalFinish(event, event.goal);
      return [
        `${event.message} — ${event.passed}/${event.total} passed, ${iterationCount(event)}, ${money(event.costUsd)}${event.parked.length ? `, parked: ${event.parked.join(', ')}` : ''} (exit ${event.exitCode})`,
        ...questionLines(event.questions ?? []),
      ].join('\n');
    case 'goal-result':
      return [
        `${event.status === 'needs-human' ? '!' : '✓'} iteration ${event.iteration} (${event.status}): ${firstLine(event.summary.trim())}`,
        ...event.completedStepIds.map((id) => `    done ${id}`),
        ...event.addedSteps.map((s) => `    + ${s.id}: ${firstLine(s.prompt.trim())}`),
        ...(event.commits.length > 0
          ? [`    commits: ${event.commits.map((c) => c.sha.slice(0, 7)).join(', ')}`]
          : []),
        `    steps: ${event.steps.completed}/${event.steps.total} done`,
      ].join('\n');
    case 'goal-warning':
      return `  warning: ${event.message}`;
    case 'goal-complete-refused':
      return `  ${firstLine(event.reason.trim())}`;
    case 'waiting':
      return `waiting (${event.reason}): ${firstLine(event.message)}${event.waitMs !== undefined ? `; next try in ${duration(event.waitMs)}` : ''}${event.until ? ` (at ${event.until.slice(11, 19)})` : ''}`;
    case 'agent-unusable':
      return `✗ ${event.agent}: ${firstLine(event.message)}; ${event.fix}`;
    case 'question-asked':
      return `? ${event.storyId ?? 'the run'} asks${event.questionId === event.storyId ? '' : ` (${event.questionId})`}: ${firstLine(event.question.trim())}`;
    case 'question-answered':
      return `  answered ${event.questionId}: ${firstLine(event.answer.trim())}`;
    case 'warning':
      return `warning: ${event.message}`;
    case 'webhook-failed':
      return `  webhook ${event.webhook} could not be told of ${event.event} (${event.error}, after ${event.tries} ${event.tries === 1 ? 'try' : 'tries'}); its later failures are not shown`;
    case 'agent-silent':
      return `  ${event.storyId ? `${event.storyId}: ` : ''}${event.agent} silent for ${Math.round(event.silentMs / 1000)} s${event.attempt ? `, attempt ${event.attempt}` : ''}, ${duration(event.elapsedMs).replace(' ', '')}`;
    case 'worker-finished':
    case 'integrate-finished':
      // Their commands say what became of the job in a line of their own.
      return null;
    case 'worktree-created':
      return `worktree ${event.path} on ${event.branch}${event.newBranch ? ` (new branch from ${event.base ?? 'HEAD'})` : ''}`;
    case 'worktree-reused':
      return `worktree ${event.path} on ${event.branch}`;
    case 'branch-switched':
      return `${event.created ? 'created and switched to' : 'switched to'} ${event.branch}`;
    case 'task-file-copied':
      return `  committed the task file in the worktree (${event.commit.slice(0, 7)})`;
    case 'task-file-updated':
      return `  took the main checkout's edits to the task file (${describeMainEdits(event)}; statuses as the run left them) (${event.commit.slice(0, 7)})`;
    case 'uncommitted-left-out':
      return `  note: the worktree starts from the last commit; ${event.files.length} uncommitted change${event.files.length === 1 ? '' : 's'} in the main checkout ${event.files.length === 1 ? 'is' : 'are'} not in it (${listSome(event.files)}); commit them first for the agent to see them`;
    case 'setup-started':
      return `worktree setup: ${event.command}`;
    case 'setup-finished':
      return event.exitCode === 0
        ? `  setup done in ${seconds(event.durationMs)}`
        : `  setup failed (exit ${event.exitCode}) after ${seconds(event.durationMs)}`;
    case 'archived':
      return `archived the previous run (${event.previousBranch}) to ${event.dir}`;
    case 'changes-stashed':
      return `your uncommitted changes (${event.files.length} file${event.files.length === 1 ? '' : 's'}) were stashed so failed attempts can be rolled back safely; get them back with \`git stash pop\` (or \`git stash apply ${event.sha.slice(0, 7)}\`)`;
    case 'push-started':
      return `pushing ${event.branch}`;
    case 'pr-started':
      return `opening a pull request: ${event.branch} -> ${event.base}`;
    case 'branch-pushed':
      return `pushed ${event.branch} to ${event.remote}`;
    case 'push-failed':
      return `could not push ${event.branch} to ${event.remote}: ${firstLine(event.message)}`;
    case 'pr-created':
      return `pull request ${event.existing ? '(already open) ' : ''}${event.url}`;
    case 'pr-failed':
      return `no pull request: ${event.message}`;
  }
}

/**
 * The limit in the numbers the iteration lines use (`iteration 3/11`): on a
 * resumed run the numbers go on from the earlier sessions'.
 */
function iterationLimit(event: EventOf<'run-started'>): string {
  if (event.lastIteration === undefined) return `up to ${plural(event.maxIterations, 'iteration')}`;
  return `up to iteration ${event.lastIteration} (${event.maxIterations} this session)`;
}

/** This session's iterations, and every session's when they differ (as `ralph status` counts, beside the run's whole cost). */
function iterationCount(event: EventOf<'run-finished'>): string {
  const all = event.iterationsInAll;
  const here = plural(event.iterations, 'iteration');
  return all === undefined || all === event.iterations ? here : `${here} this session, ${all} in all`;
}

/** How many of a failed gate's last lines the default output shows. */
const GATE_LINES = 5;

function lastLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.length <= count ? text : `…\n${lines.slice(-count).join('\n')}`;
}

/** The first few of a list of paths, and how many more. */
function listSome(files: readonly string[], shown = 3): string {
  const more = files.length - shown;
  return `${files.slice(0, shown).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** "conflict with US-006 in REGISTRY.md", "the checks failed once US-006 landed". */
export function describeRace(event: EventOf<'resolution-started'>): string {
  const who = event.landedMeanwhile.length > 0 ? event.landedMeanwhile.join(', ') : 'the new tip';
  return event.kind === 'conflict'
    ? `conflict with ${who} in ${event.files.join(', ')}`
    : `the checks failed once ${who} landed`;
}

function describeRecovery(action: Extract<RunEvent, { type: 'recovered' }>['action'], id: string): string {
  switch (action) {
    case 'rolled-back':
      return `recovered: the interrupted attempt at ${id} was rolled back`;
    case 'completed-record':
      return `recovered: ${id} had passed; its record was completed`;
    case 'kept-verified':
      return `recovered: ${id} was verified before the run stopped; it lands first`;
    case 'integration-reset':
      return `recovered: the unfinished landing of ${id} was undone; the PRD branch is as it was`;
    case 'cleaned':
      return `recovered: ${id} had landed; its worktree and branch were removed`;
  }
}

function describeAgentEvent(event: AgentEvent, verbose: boolean): string | null {
  switch (event.type) {
    case 'tool-started':
      return `  ⚙ ${event.name}${event.summary ? ` ${event.summary}` : ''}`;
    case 'assistant-text':
      return verbose ? indent(event.text) : null;
    case 'tool-finished':
      if (!verbose) return null;
      if (!event.ok)
        return `  ✗ tool failed${event.output ? `\n${indent(truncate(event.output, 400))}` : ''}`;
      return event.output ? indent(truncate(event.output, 400)) : null;
    case 'error':
      return `  agent error (${event.kind}): ${firstLine(event.message)}`;
    case 'retry':
      return `  ${describeRetry(event)}`;
    case 'garbage':
      return verbose ? `  (unparsed output) ${truncate(event.line, 200)}` : null;
    default:
      return null;
  }
}

/** `API request failed (529 overloaded); retry 2/10 in 1.2s`: the agent CLI's own retry of a request. */
export function describeRetry(event: RetryEvent): string {
  const what = [event.status, event.reason].filter((p) => p !== undefined && p !== '').join(' ');
  const wait = event.delayMs === undefined ? '' : ` in ${seconds(event.delayMs)}`;
  // Codex waiting for the network counts nothing.
  const which = event.maxRetries === 0 ? 'retrying' : `retry ${event.attempt}/${event.maxRetries}`;
  return `API request failed (${what}); ${which}${wait}`;
}

/** `1 iteration`, `2 iterations`. */
export const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function describeTakeover(event: Extract<RunEvent, { type: 'lock-taken-over' }>): string {
  const holder = `pid ${event.previousPid} on ${event.host}`;
  switch (event.reason) {
    case 'forced':
      return `warning: --force: took the lock of ${holder} (started ${event.startedAt}); if that run is still going, both runs now change the same files`;
    case 'pid-reused':
      return `took over a stale lock from ${holder}: that pid now belongs to another program`;
    default:
      return `took over a stale lock from ${holder}`;
  }
}

export const firstLine = (text: string): string => truncate(text.split('\n')[0] ?? '', 300);
const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);
const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

function describeGoalStart(
  event: EventOf<'run-started'>,
  goal: NonNullable<EventOf<'run-started'>['goal']>,
): string {
  return `${event.resumed ? 'resuming' : 'starting'} goal ${event.name}: ${firstLine(goal.text.trim())} (agent ${event.agent}${sandboxNote(event)}, ${goal.steps.completed}/${goal.steps.total} steps done, iterations ${goal.iterationsBefore + 1}..${event.maxIterations}${goal.minIterations > 1 ? `, at least ${goal.minIterations}` : ''})`;
}

/** ` in a 🔒 bwrap sandbox` for a sandboxed run. */
const sandboxNote = (event: EventOf<'run-started'>): string =>
  event.sandbox ? ` in a 🔒 ${event.sandbox} sandbox` : '';

function describeGoalFinish(
  event: EventOf<'run-finished'>,
  goal: NonNullable<EventOf<'run-finished'>['goal']>,
): string {
  const lines = [
    `${event.message} — ${event.passed}/${event.total} steps done, ${plural(event.iterations, 'iteration')}, ${money(event.costUsd)} (exit ${event.exitCode})`,
  ];
  if (goal.finalSummary) lines.push(...indentLines(goal.finalSummary));
  if (goal.humanNeeded) {
    lines.push(`  needs a human: ${goal.humanNeeded.reason}`);
    if (goal.humanNeeded.details) lines.push(...indentLines(goal.humanNeeded.details));
    lines.push(
      event.questions?.length
        ? '  answer it (or resolve it), then run the same command again to resume'
        : '  resolve it, then run the same command again to resume',
    );
  }
  lines.push(...questionLines(event.questions ?? []));
  lines.push(`  progress: ${goal.progressFile}`);
  return lines.join('\n');
}

const indentLines = (text: string): string[] =>
  text
    .trim()
    .split('\n')
    .map((l) => `    ${l}`);

/** The questions a run stopped with, each with the command that answers it. */
function questionLines(
  questions: readonly { id: string; storyId?: string; question: string; command: string }[],
) {
  return questions.flatMap((q) => [
    `  ? ${q.storyId ?? q.id} asks: ${firstLine(q.question.trim())}`,
    `    answer with: ${q.command}`,
  ]);
}
