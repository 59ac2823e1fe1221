/**
 * What the terminal UI needs from the rest of ralph. The CLI implements it
 * over the engine, the task sources, git and the config; tests implement it
 * in memory. The TUI only reads these summaries and the event stream, and
 * asks for actions: it never touches files, git or processes itself.
 */
import type { GoalMode, GoalRunState } from '../../core/goal-types.js';
import type { RunEvent } from '../../events/run-event.js';
import type { Provider } from '../../state/config-schema.js';

/** ✓ done, ● in progress, ○ todo, ✗ parked (retries used up in an earlier run), ? waiting for an answer. */
export type StoryState = 'done' | 'in-progress' | 'todo' | 'parked' | 'waiting';

/** The question a story's agent asked (`<ralph>ASK …</ralph>`), and the answer once one is given. */
export interface StoryQuestion {
  /** What `ralph answer` takes. */
  id: string;
  text: string;
  answer?: string;
}

export interface StorySummary {
  id: string;
  title: string;
  status: StoryState;
  description: string;
  acceptanceCriteria: readonly string[];
  dependsOn: readonly string[];
  /** From the run state: attempts so far, with their spend. */
  attempts: number;
  costUsd: number;
  durationMs: number;
  lastFailure?: string;
  /** The story's entry in the progress file, as written there. */
  progressEntry?: string;
  /** The latest question its agent asked. */
  question?: StoryQuestion;
}

export interface PrdSummary {
  /** The PRD name (`.ralph/prds/<name>/`); the key of every session call. */
  name: string;
  project: string;
  description?: string;
  stories: readonly StorySummary[];
  /** The branch the loop commits to. */
  branch?: string;
  /** The worktree the loop runs in, when it is not the main checkout. */
  worktree?: string;
  /** The agent a run would use (`claude`, `codex`, ...). */
  agent: string;
  /** The sandbox a run would start the agent in (`bwrap`, `sandbox-exec`); absent when none. */
  sandbox?: string;
  /** The iteration limit the next run starts with (remaining stories + 5 unless configured or steered). */
  maxIterations: number;
  /** The run state's iteration number: iterations run so far, over every session of the run. */
  iteration: number;
  /** The agent is stopped after this long without output (`--idle-timeout`). */
  idleTimeoutMs: number;
  /** Spend recorded for this PRD by earlier runs. */
  costUsd: number;
  /** A loop for this PRD is running (in this process or, after a reload, elsewhere). */
  running: boolean;
  /** Set for a goal run (`ralph goal`): its `stories` are the steps the agent made. */
  goal?: GoalTab;
}

/** What a goal run's tab shows besides its steps. */
export interface GoalTab {
  /** The goal text; `project` is its first line. */
  text: string;
  state: GoalRunState;
  /** The mode of the iteration running now, else of the next one; null once the goal is complete. */
  mode: GoalMode | null;
  /** The latest hook tasks, oldest first. */
  hookTasks: readonly HookTaskLine[];
}

/** One run of a per-iteration hook, as the details panel lists it. */
export interface HookTaskLine {
  iteration: number;
  hookId: string;
  parallel: boolean;
  status: 'running' | 'completed' | 'failed';
  /** Why it failed, or where what it wrote went. */
  detail?: string;
}

/** Everything `subscribe` delivers: the engine's events (a PRD loop's or a goal run's), push and pull request included. */
export type SessionEvent = RunEvent;

/** The part of `.ralph/config.yaml` the settings screen edits. */
export interface TuiSettings {
  agent: { provider: Provider; model: string | null };
  checks: readonly string[];
  worktree: { enabled: boolean; setup: string | null };
  onComplete: { push: boolean; createPR: boolean };
  notifications: { bell: boolean; desktop: boolean };
}

/** A change to save; only the keys present are written. */
export interface SettingsPatch {
  agent?: { provider?: Provider; model?: string | null };
  checks?: readonly string[];
  worktree?: { enabled?: boolean; setup?: string | null };
  onComplete?: { push?: boolean; createPR?: boolean };
  notifications?: { bell?: boolean; desktop?: boolean };
}

/** Why the agent a run would start cannot run here, and what to do about it. */
export interface AgentProblem {
  message: string;
  /** How to fix it, e.g. the `--agent-path` hint. */
  details: readonly string[];
}

export interface ActionResult {
  ok: boolean;
  message: string;
}

export interface TuiSession {
  /** Every PRD, in tab order (keys 1–9 pick the first nine). */
  readonly prds: readonly PrdSummary[];
  /** The PRD selected at start (`ralph run <name>`); default the first. */
  readonly initial?: string;
  /**
   * Start, or resume, the loop; settles when the loop has ended. The loop's
   * progress comes through `subscribe`; a rejection (e.g. no agent binary)
   * is shown, and the PRD goes back to ready.
   */
  start(name: string): Promise<unknown>;
  /** Finish the current iteration, then stop (the first Ctrl-C of the headless run). */
  pause(name: string): void;
  /** Kill the agent's process group now; the attempt is rolled back. */
  stopNow(name: string): void;
  /** Raise or lower the iteration limit of the running (or next) loop; returns the new limit. */
  adjustMaxIterations(name: string, delta: number): number;
  /**
   * The first check a run makes of its agent (is its binary there), asked
   * once when the TUI opens, so a missing agent is said before `s`.
   * Resolves with null when it is found.
   */
  checkAgent?(): Promise<AgentProblem | null>;
  /** Every event of every PRD's loop; returns the unsubscribe function. */
  subscribe(listener: (name: string, event: SessionEvent) => void): () => void;
  /** The PRD as it is now on disk (statuses, progress entries, run state). */
  reloadPrd(name: string): Promise<PrdSummary>;
  /** `git show` of the story's commits, or the uncommitted diff when `storyId` is null. */
  diff(name: string, storyId: string | null): Promise<string>;
  readonly config: {
    get(): TuiSettings;
    /** Validates and writes the change; returns the problems found (nothing written if any). */
    save(patch: SettingsPatch): Promise<readonly string[]>;
  };
  /** Merge the PRD's branch into the branch it started from. */
  merge?(name: string): Promise<ActionResult>;
  /** After the agent could not be used: one tiny real request to see whether it is fixed. */
  recheckAgent?(name: string): Promise<ActionResult>;
  /** Remove the PRD's worktree (the branch stays). */
  clean?(name: string): Promise<ActionResult>;
  /** Records a person's answer to a question of the PRD's run (as `ralph answer` does). */
  answer?(name: string, questionId: string, text: string): Promise<ActionResult>;
  /**
   * `ralph new <name>` / `ralph edit <name>` with the terminal handed to the
   * agent. The session checks the request first and refuses (ok: false) with
   * the reason, without touching the terminal; otherwise it calls
   * `terminal.release()` before the agent starts, and the TUI draws itself
   * again once this settles.
   */
  handOff?(request: HandOffRequest, terminal: TerminalLease): Promise<HandOffResult>;
}

export type HandOffRequest = { kind: 'new'; name: string } | { kind: 'edit'; name: string };

export interface TerminalLease {
  /** Takes the TUI off the screen and out of the keyboard until the hand-off settles. */
  release(): Promise<void>;
}

export interface HandOffResult extends ActionResult {
  /** The PRD written or edited, to show (and select) when the TUI comes back. */
  prd?: PrdSummary;
}
