/**
 * What `ralph serve` sends the page: the project as the page shows it. Types
 * only, shared by the server and the page's script (which imports nothing
 * else from the CLI). Every string here may come from a task file or an
 * agent: the page sets it as text, never as HTML.
 */

/** ✓ done, ● running, ○ to do, ✗ parked, ? waiting for an answer. */
export type ItemState = 'done' | 'running' | 'todo' | 'parked' | 'waiting';

/** A PRD's story or a goal run's step. */
export interface ItemView {
  id: string;
  title: string;
  state: ItemState;
  attempts: number;
  durationMs: number;
  costUsd: number;
  /** Why the story was parked, or why its last attempt failed. */
  reason: string | null;
  dependsOn: string[];
}

export interface QuestionView {
  id: string;
  storyId: string | null;
  question: string;
  askedAt: string;
  /** The answer recorded, while the run has not taken it yet; null until one is given. */
  answer: { text: string; at: string } | null;
}

/** See src/core/run-phase.ts: the page's words are `ralph status --json`'s. */
export type RunPhase =
  | 'running'
  | 'waiting'
  | 'complete'
  | 'stopped'
  | 'stopped-unexpectedly'
  | 'idle'
  | 'needs-human'
  | 'invalid';

export interface RunView {
  name: string;
  kind: 'prd' | 'goal';
  /** The PRD's project, or the goal's first line. */
  title: string;
  phase: RunPhase;
  /** What is happening now or how the last session ended, in one sentence. */
  detail: string;
  /** What the run's state holds under way (`US-001 attempt 2`, `landing US-002`): live, or left by a run that died. */
  inFlight: string[];
  /** The last moment the run was heard of (its last event), for a run that stopped unexpectedly; else null. */
  stoppedAt: string | null;
  done: number;
  total: number;
  iterations: number;
  costUsd: number;
  /** The live run's process: where a Pause or Stop goes. */
  live: { pid: number; host: string; since: string } | null;
  /** A control request sent and not yet seen through: `pause` or `stop`. */
  control: 'pause' | 'stop' | null;
  items: ItemView[];
  questions: QuestionView[];
  /** Why the run's files could not be read (a broken task file), else null. */
  error: string | null;
}

export interface ProjectView {
  /** The project folder's name. */
  project: string;
  runs: RunView[];
  at: string;
}

/** One line of a run's live log, as `ralph.log` words it. */
export interface LogLine {
  at: string;
  text: string;
  tone: 'good' | 'bad' | 'warn' | 'info';
}

/** The stream's `log` message: new lines of one run (on connecting, its recent ones). */
export interface LogBatch {
  run: string;
  lines: LogLine[];
  /** True for the recent lines sent on connecting: the page replaces what it shows. */
  reset: boolean;
}

/** The routes of the page's API, in one place for the server and the page. */
export const API = {
  stream: '/api/stream',
  project: '/api/project',
  answer: (run: string) => `/api/runs/${encodeURIComponent(run)}/answer`,
  control: (run: string) => `/api/runs/${encodeURIComponent(run)}/control`,
} as const;

/** The header a state-changing request carries the page's CSRF token in. */
export const CSRF_HEADER = 'x-ralph-csrf';
