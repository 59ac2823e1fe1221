/**
 * One cycle of the fault campaign: a fresh three-story project with the real
 * Claude Code against the scripted server, ralph killed with SIGKILL once or
 * twice (the second time while it resumes), then run to the end; and what
 * must hold afterwards, as a list of violations.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoopProject } from '../support/loop-project.js';
import { isProcessAlive } from '../support/process-alive.js';
import { processesIn } from '../support/processes.js';
import type { CliResult } from '../support/ralph-cli.js';
import {
  createCampaignProject,
  createParallelCampaignProject,
  runArgs,
  type WorkspaceMode,
} from './campaign-project.js';
import { describePlan, type KillPlan } from './kill-plan.js';
import { checkOutcome } from './outcome-checks.js';

export interface KillRecord {
  plan: string;
  /** How the moment was chosen: a point inside ralph, an event in events.jsonl, a random time. */
  kind: KillPlan['kind'];
  /** Where the run was when it died (see `momentOf`); `finished first` when it ended before the kill. */
  moment: string;
  landed: boolean;
  /** Processes still running in the project right after the kill (an agent, a gate, a tool command). */
  leftRunning: number;
}

export interface CycleReport {
  cycle: number;
  mode: WorkspaceMode;
  kills: KillRecord[];
  runs: number;
  finalExit: number | null;
  recovered: { rolledBack: number; completedRecord: number };
  /** Processes left by a kill that were still alive once the next run had recovered. */
  survivors: number;
  violations: string[];
  durationMs: number;
}

const EVENTS = '.ralph/runs/demo/events.jsonl';

type Event = { type: string; action?: string };

async function readEvents(p: LoopProject): Promise<Event[]> {
  const text = await readFile(join(p.repo.dir, EVENTS), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);
}

export async function runCycle(cycle: number, mode: WorkspaceMode, plans: KillPlan[]): Promise<CycleReport> {
  const started = performance.now();
  // An agent left running by a kill right after its spawn must still be running when the next run starts.
  const orphaning = plans.some((p) => p.kind === 'point' && p.point === 'agent-spawned');
  const slow = orphaning ? { slowStartMs: 4_000 } : {};
  const project =
    mode === 'parallel' ? await createParallelCampaignProject(slow) : await createCampaignProject(slow);
  const args = runArgs(mode);
  const kills: KillRecord[] = [];
  const violations: string[] = [];
  let leftovers: number[] = [];
  let survivors = 0;
  try {
    for (const plan of plans) {
      const run = await watchedRun(project, args, plan, leftovers);
      survivors += run.survivors;
      violations.push(...run.violations);
      leftovers = run.leftovers;
      if (run.kill) kills.push(run.kill);
    }
    const eventsBefore = (await readEvents(project)).length;
    const final = await watchedRun(project, args, null, leftovers);
    survivors += final.survivors;
    violations.push(...final.violations);
    const recovered = (await readEvents(project)).filter((e) => e.type === 'recovered');
    violations.push(...(await checkOutcome(project, mode, final.result, eventsBefore)));
    return {
      cycle,
      mode,
      kills,
      runs: plans.length + 1,
      finalExit: final.result.exitCode,
      recovered: {
        rolledBack: recovered.filter((e) => e.action === 'rolled-back').length,
        completedRecord: recovered.filter((e) => e.action === 'completed-record').length,
      },
      survivors,
      violations,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    // Whatever a failed cycle left running must not outlive it.
    for (const left of processesIn(project.repo.dir)) process.kill(left.pid, 'SIGKILL');
    await project.cleanup();
  }
}

interface WatchedRun {
  result: CliResult;
  kill?: KillRecord;
  /** Processes of earlier runs still alive once this run had recovered: must be none. */
  survivors: number;
  violations: string[];
  /** Processes still to be stopped by a later run: this run's, if it was killed, and earlier ones it never got to. */
  leftovers: number[];
}

/**
 * One run of ralph, killed as `plan` says (none: left to finish). The
 * processes earlier kills left running must all be gone once it has
 * recovered (its `run-started` event): a survivor could still commit.
 */
async function watchedRun(
  project: LoopProject,
  args: string[],
  plan: KillPlan | null,
  leftovers: readonly number[],
): Promise<WatchedRun> {
  const before = (await readEvents(project)).length;
  let pid = 0;
  let done = false;
  const env = plan?.kind === 'point' ? { RALPH_FAULT_AT: `${plan.point}#${plan.occurrence}` } : {};
  const run = project
    .run(args, {
      env,
      onSpawn: (ralph) => {
        pid = ralph;
      },
    })
    .finally(() => {
      done = true;
    });
  const kill = () => {
    if (!done && pid > 0) process.kill(pid, 'SIGKILL');
  };
  const timer = plan?.kind === 'random' ? setTimeout(kill, plan.afterMs) : undefined;
  const violations: string[] = [];
  let survivors: number[] = [];
  let recoveredChecked = leftovers.length === 0;
  let killed = plan?.kind !== 'event';
  // events.jsonl is appended synchronously, line by line: the n-th new line of a type is a moment.
  while (!done && !(recoveredChecked && killed)) {
    const fresh = (await readEvents(project)).slice(before);
    if (!recoveredChecked && fresh.some((e) => e.type === 'run-started')) {
      recoveredChecked = true;
      survivors = leftovers.filter(isProcessAlive);
      if (survivors.length > 0) {
        violations.push(`processes of a killed run outlived the recovery: ${survivors.join(', ')}`);
      }
    }
    if (!killed && plan?.kind === 'event' && fresh.filter((e) => e.type === plan.type).length >= plan.nth) {
      killed = true;
      if (plan.delayMs > 0) await sleep(plan.delayMs);
      kill();
    }
    await sleep(10);
  }
  const result = await run;
  clearTimeout(timer);
  const landed = result.signal === 'SIGKILL';
  const left = landed ? processesIn(project.repo.dir).map((p) => p.pid) : [];
  const unchecked = recoveredChecked ? [] : leftovers.filter(isProcessAlive);
  if (plan === null) return { result, survivors: survivors.length, violations, leftovers: [] };
  const moment = !landed
    ? 'finished first'
    : plan.kind === 'point'
      ? plan.point
      : await momentOf(project, (await readEvents(project)).slice(before));
  return {
    result,
    kill: { plan: describePlan(plan), kind: plan.kind, moment, landed, leftRunning: left.length },
    survivors: survivors.length,
    violations,
    leftovers: [...new Set([...unchecked, ...left])],
  };
}

/** Where a run killed at a timed moment was: from its last event and the state it left. */
async function momentOf(project: LoopProject, events: Event[]): Promise<string> {
  const state = await readFile(join(project.repo.dir, '.ralph/runs/demo/state.json'), 'utf8').catch(
    () => '{}',
  );
  const saved = JSON.parse(state) as {
    current?: { phase?: string };
    resolving?: unknown;
    integrating?: unknown;
  };
  if (saved.current?.phase === 'recording') return 'recording a pass';
  if (saved.resolving !== undefined) return 'resolving a race (agent)';
  if (saved.integrating !== undefined) return 'landing a story';
  switch (events.at(-1)?.type) {
    case undefined:
    case 'lock-taken-over':
    case 'recovered':
      return 'starting (lock, workspace, recovery)';
    case 'iteration-started':
      return 'spawning the agent';
    case 'agent-event':
    case 'signal':
      return 'agent working';
    case 'agent-exited':
    case 'usage':
    case 'task-file-restored':
      return 'verifying (before the gates)';
    case 'check-started':
      return 'gate running';
    case 'check-finished':
      return 'verifying (after the gates)';
    case 'run-finished':
      return 'finishing';
    case 'story-verified':
    case 'integration-failed':
    case 'resolution-finished':
      return 'between a verdict and its landing';
    default:
      return 'between iterations';
  }
}
