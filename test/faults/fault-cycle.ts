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
import { processesIn } from '../support/processes.js';
import { createCampaignProject, runArgs, type WorkspaceMode } from './campaign-project.js';
import { describePlan, type KillPlan } from './kill-plan.js';
import { checkOutcome } from './outcome-checks.js';

export interface KillRecord {
  plan: string;
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
  const project = await createCampaignProject();
  const args = runArgs(mode);
  const kills: KillRecord[] = [];
  let runs = 0;
  try {
    for (const plan of plans) {
      runs++;
      kills.push(await killedRun(project, args, plan));
    }
    runs++;
    const eventsBefore = (await readEvents(project)).length;
    const final = await project.run(args);
    const recovered = (await readEvents(project)).filter((e) => e.type === 'recovered');
    const violations = await checkOutcome(project, mode, final, eventsBefore);
    return {
      cycle,
      mode,
      kills,
      runs,
      finalExit: final.exitCode,
      recovered: {
        rolledBack: recovered.filter((e) => e.action === 'rolled-back').length,
        completedRecord: recovered.filter((e) => e.action === 'completed-record').length,
      },
      violations,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    // Whatever a failed cycle left running must not outlive it.
    for (const left of processesIn(project.repo.dir)) process.kill(left.pid, 'SIGKILL');
    await project.cleanup();
  }
}

/** One run of ralph killed as `plan` says; what it was doing when it died. */
async function killedRun(project: LoopProject, args: string[], plan: KillPlan): Promise<KillRecord> {
  const before = (await readEvents(project)).length;
  let pid = 0;
  let done = false;
  const env = plan.kind === 'point' ? { RALPH_FAULT_AT: `${plan.point}#${plan.occurrence}` } : {};
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
  if (plan.kind === 'random') {
    const timer = setTimeout(kill, plan.afterMs);
    await run.finally(() => clearTimeout(timer));
  } else if (plan.kind === 'event') {
    // events.jsonl is appended synchronously, line by line: the n-th new line of the type is the moment.
    while (!done) {
      const fresh = (await readEvents(project)).slice(before);
      if (fresh.filter((e) => e.type === plan.type).length >= plan.nth) {
        if (plan.delayMs > 0) await sleep(plan.delayMs);
        kill();
        break;
      }
      await sleep(10);
    }
  }
  const result = await run;
  const landed = result.signal === 'SIGKILL';
  const leftRunning = landed ? processesIn(project.repo.dir).length : 0;
  const moment = !landed
    ? 'finished first'
    : plan.kind === 'point'
      ? plan.point
      : await momentOf(project, (await readEvents(project)).slice(before));
  return { plan: describePlan(plan), moment, landed, leftRunning };
}

/** Where a run killed at a timed moment was: from its last event and the state it left. */
async function momentOf(project: LoopProject, events: Event[]): Promise<string> {
  const state = await readFile(join(project.repo.dir, '.ralph/runs/demo/state.json'), 'utf8').catch(
    () => '{}',
  );
  if ((JSON.parse(state) as { current?: { phase?: string } }).current?.phase === 'recording') {
    return 'recording a pass';
  }
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
    default:
      return 'between iterations';
  }
}
