import type { AgentSetup } from '../agents/adapter.js';
import type { CollectedUsage } from '../agents/agent-collector.js';
import { attemptBounds } from '../attempt/attempt-request.js';
import { runAttempt } from '../attempt/run-attempt.js';
import { RESOLVE_PROMPT } from '../core/embedded-prompts.js';
import type { IntegrationProblem } from '../core/integration-failure.js';
import { conflictMarkerLines, droppedLines } from '../core/kept-lines.js';
import type { OutsideFailure } from '../core/outside-failure.js';
import { commitMessageFor } from '../core/prompt.js';
import { buildResolutionPrompt } from '../core/resolution-prompt.js';
import { acceptResolution, type ResolutionVerdict, resolutionShape } from '../core/resolution-shape.js';
import type { StoryVerdict } from '../core/story-verdict.js';
import type { Prd, Story } from '../core/types.js';
import type { RunEventSink } from '../events/run-event.js';
import {
  addedLines,
  changedPaths,
  commitMerged,
  diffOf,
  prepareResolutionCheckout,
  textAt,
} from '../git/resolution-checkout.js';
import type { RunContext } from '../run/run-context.js';
import { reportAgentDone, storyAttemptEvent } from '../run/story-attempt.js';
import { isToolFile, toolPaths } from '../run/tool-files.js';
import { setupOnce } from '../run/worktree-setup.js';
import { faultPoint } from '../state/fault-point.js';
import { resolutionLogPath } from '../state/layout.js';
import { startResolving, updateResolving } from '../state/race-records.js';
import { addUsage } from '../state/run-state-update.js';
import type { StateStore } from './state-store.js';
import { storyCheckoutDir, storyContext } from './work-story.js';

export interface RaceRequest {
  /** The run: its cwd is the PRD checkout. */
  ctx: RunContext;
  /** The repository's main checkout. */
  root: string;
  story: Story;
  /** The task file on the tip, for the titles of the stories that landed meanwhile. */
  prd: Prd;
  /** The verified work that no longer fits. */
  verdict: StoryVerdict;
  /** The PRD branch's tip it failed to land on. */
  tip: string;
  /** The iteration of the attempt whose work this is: the resolution's events and stream belong to it. */
  iteration: number;
  problem: IntegrationProblem;
  landedMeanwhile: readonly string[];
  agent: AgentSetup;
  /** Tagged with the merge lane and the story by the caller. */
  emit: RunEventSink;
  /** What must survive a kill, awaited before the run goes on. */
  record: {
    started(worktree: string): Promise<void>;
    token(token: string): Promise<void>;
    spawned(pid: number): Promise<void>;
    agentDone(usage: CollectedUsage & { durationMs: number }): Promise<void>;
  };
}

export type RaceResolution =
  /** The work is on the new tip (`verdict.base`), verified: it lands next. */
  | { kind: 'resolved'; verdict: StoryVerdict; byAgent: boolean }
  | { kind: 'refused'; reason: string }
  | { kind: 'rate-limited'; reason: string }
  | { kind: 'outside'; failure: OutsideFailure }
  | { kind: 'aborted' };

/**
 * Brings a story's verified work onto the PRD branch's new tip, in the
 * story's checkout (detached there; the story's branch and its verdict do
 * not move): git merges the story's changes in; where it cannot, or where
 * the combination fails a check, the story's agent runs once on the attempt
 * kernel with a short prompt (the files, both sides, the stories that
 * landed, "keep both stories' intent"), judged by the resolution shape:
 * DONE, a commit, the gates, a clean tree, no conflict marker left, and
 * every line the landed stories added still there. The result is a new
 * verdict whose base is the tip; the caller stores and lands it.
 */
export async function resolveRace(request: RaceRequest): Promise<RaceResolution> {
  const { ctx, story, verdict, tip, emit } = request;
  const dir = storyCheckoutDir(ctx.files.dir, story.id);
  const prepared = await prepareResolutionCheckout(request.root, {
    dir,
    tip,
    head: verdict.head,
    toolPaths: toolPaths(ctx),
  });
  faultPoint('resolution-prepared');
  const problem: IntegrationProblem =
    prepared.conflicts.length > 0
      ? { kind: 'conflict', files: prepared.conflicts, diff: prepared.diff }
      : request.problem;
  if (problem.kind === 'conflict' && prepared.conflicts.length === 0) {
    // Commit by commit git stopped, merged as a whole it did not: the combination lands as one commit, through the gates.
    const head = await commitMerged(dir, commitMessageFor(story));
    if (head === null)
      return { kind: 'refused', reason: 'merged onto the new tip, the work changes nothing' };
    return { kind: 'resolved', verdict: { ...verdict, base: tip, head }, byAgent: false };
  }

  const { environment } = await setupOnce(dir, ctx.config.worktree.setup, emit);
  const inStory = storyContext(ctx, dir, emit, environment);
  await request.record.started(dir);
  const { iteration } = request;
  const at = { iteration, storyId: story.id };
  const titles = new Map(request.prd.stories.map((s) => [s.id, s.title]));
  const files = problem.kind === 'conflict' ? problem.files : [];
  let spent: CollectedUsage & { durationMs: number } = {
    costUsd: 0,
    inputTokens: 0,
    outputTokens: 0,
    durationMs: 0,
  };
  const outcome = await runAttempt({
    cwd: dir,
    prompt: buildResolutionPrompt({
      template: RESOLVE_PROMPT,
      project: request.prd.project,
      story,
      landed: request.landedMeanwhile.map((id) => {
        const title = titles.get(id);
        return title === undefined ? { id } : { id, title };
      }),
      problem,
      theirs: await diffOf(dir, verdict.base, tip, files),
      ours: await diffOf(dir, verdict.base, verdict.head, files),
      checks: ctx.config.checks,
      taskFilePath: toolPaths(inStory)[0] ?? '',
      progressFilePath: toolPaths(inStory)[1] ?? '',
    }),
    agent: request.agent,
    ...attemptBounds(ctx),
    rawLogPath: resolutionLogPath(ctx.files.dir, iteration),
    toolPaths: toolPaths(inStory),
    isToolPath: (path) => isToolFile(inStory, path),
    shape: resolutionShape(story.id),
    begin: (_headBefore, token) => request.record.token(token),
    spawned: request.record.spawned,
    agentDone: async ({ agent, usage, said }) => {
      reportAgentDone(emit, at, said, usage);
      spent = { ...usage, durationMs: agent.durationMs };
      await request.record.agentDone(spent);
    },
    emit: (event) =>
      emit(
        event.type === 'agent-silent'
          ? { ...event, ...at, agent: request.agent.adapter.name, attempt: verdict.attempt }
          : storyAttemptEvent(event, at),
      ),
  });
  const judged = await checkResolution(dir, inStory, {
    verdict: outcome.verdict,
    base: verdict.base,
    tip,
    landedMeanwhile: request.landedMeanwhile,
  });
  switch (judged.kind) {
    case 'refused':
      return judged;
    case 'aborted':
      return judged;
    case 'rate-limited':
      return { kind: 'rate-limited', reason: judged.reason };
    case 'outside':
      return judged;
    case 'resolved':
      break;
  }
  const head = outcome.facts.commits.at(-1)?.sha;
  if (head === undefined) return { kind: 'refused', reason: 'the resolution made no commit' };
  return {
    kind: 'resolved',
    byAgent: true,
    verdict: {
      ...verdict,
      base: tip,
      head,
      costUsd: verdict.costUsd + spent.costUsd,
      inputTokens: verdict.inputTokens + spent.inputTokens,
      outputTokens: verdict.outputTokens + spent.outputTokens,
      durationMs: verdict.durationMs + spent.durationMs,
      verifiedAt: ctx.now().toISOString(),
      learnings: [...verdict.learnings, ...outcome.facts.said.learn],
      resolved: true,
    },
  };
}

/**
 * The kernel's verdict, then what only the merge queue checks: no conflict
 * marker in a file the resolution committed, and every line the stories
 * that landed meanwhile added still there (or extended in place).
 */
async function checkResolution(
  dir: string,
  inStory: RunContext,
  given: { verdict: ResolutionVerdict; base: string; tip: string; landedMeanwhile: readonly string[] },
): Promise<ResolutionVerdict> {
  if (given.verdict.kind !== 'resolved') return given.verdict;
  const theirs = (p: string) => !isToolFile(inStory, p);
  const changed = (await changedPaths(dir, given.tip, 'HEAD')).filter(theirs);
  const result = new Map<string, string[] | null>();
  const markers: { file: string; line: number }[] = [];
  for (const file of changed) {
    const text = await textAt(dir, 'HEAD', file);
    result.set(file, text === null ? null : text.split('\n'));
    if (text !== null) for (const line of conflictMarkerLines(text)) markers.push({ file, line });
  }
  const landedFiles = (await changedPaths(dir, given.base, given.tip)).filter(
    (f) => theirs(f) && result.has(f),
  );
  const landed = await Promise.all(
    landedFiles.map(async (file) => ({ file, added: await addedLines(dir, given.base, given.tip, file) })),
  );
  return acceptResolution(given.verdict, {
    markers,
    dropped: droppedLines(landed, result),
    landedMeanwhile: given.landedMeanwhile,
  });
}

/**
 * What a resolution run records, in the run state of whoever runs it (the
 * parallel run, `ralph integrate`): that it runs, in which checkout, its
 * agent's token and process group (a killed run stops them), its spend on
 * the story; and the event that says the story waits to land.
 */
export function resolutionRecords(
  store: StateStore,
  emit: RunEventSink,
  run: {
    storyId: string;
    iteration: number;
    race: { problem: IntegrationProblem; landedMeanwhile: readonly string[] };
    agent: string;
    now: () => Date;
  },
): RaceRequest['record'] {
  const { storyId, iteration, race, now } = run;
  return {
    started: async (worktree) => {
      await store.update((s) => startResolving(s, { storyId, worktree, iteration, now: now() }));
      emit({
        type: 'resolution-started',
        storyId,
        iteration,
        kind: race.problem.kind === 'conflict' ? 'conflict' : 'check-failed',
        files: race.problem.kind === 'conflict' ? [...race.problem.files] : [],
        landedMeanwhile: [...race.landedMeanwhile],
        agent: run.agent,
      });
    },
    token: async (token) => {
      await store.update((s) => updateResolving(s, { agentToken: token }));
    },
    spawned: async (pid) => {
      await store.update((s) => updateResolving(s, { agentPid: pid }));
    },
    agentDone: async (usage) => {
      await store.update((s) => addUsage(s, storyId, usage, now()));
    },
  };
}
