import type { AgentSetup } from '../agents/adapter.js';
import type { Reservation } from '../core/landing-race.js';
import type { Prd } from '../core/types.js';
import type { RunEventSink } from '../events/run-event.js';
import type { AnswerDesk } from '../run/answer-desk.js';
import type { RunContext } from '../run/run-context.js';
import type { WaitingStory } from './parallel-recovery.js';
import type { StateStore } from './state-store.js';

/** Verified work on its story branch, in the merge queue. */
export interface Verified extends WaitingStory {
  /** The iteration of the attempt that verified it, for the landing's gate events. */
  iteration: number;
}

/**
 * What the lanes of one parallel run share in memory: only which stories
 * are busy and the order verified ones wait in. The work itself is handed
 * over through git (story branches and their verdicts, the PRD branch) and
 * the task file on the PRD branch.
 */
export interface ParallelRun {
  /** The run; its cwd is the PRD checkout, which only the merge queue changes. */
  ctx: RunContext;
  store: StateStore;
  /** The repository's main checkout. */
  root: string;
  prdBranch: string;
  /** The task file as on the PRD branch's tip; read again after each landing. */
  prd: Prd;
  /** The questions workers' agents ask, and the answers people give. */
  desk: AnswerDesk;
  /** Stories running or verified and waiting to land: never started twice. */
  busy: Set<string>;
  /** The merge queue, in the order stories passed. */
  queue: Verified[];
  /** The story that lost a race to land: the next landing is its (kept in the run state too). */
  reserved: Reservation | null;
  /** The agent a resolution runs now (the rotation's current one). */
  agent(): AgentSetup;
  /** Tags a lane's events: a worker's number, or `merge`. */
  laneEmit(worker: number | 'merge', storyId: string): RunEventSink;
  /** The run's hooks after an attempt, in the PRD checkout; the caller holds it. */
  afterIteration(iteration: number, storyId: string): Promise<void>;
  /** Runs `work` while no one else uses the PRD checkout (landings, hooks). */
  inCheckout<T>(work: () => Promise<T>): Promise<T>;
  /** Starts housekeeping that need not hold up the merge queue; the run waits for it before it ends. */
  meanwhile(work: () => Promise<void>): void;
}
