import type { AgentEvent, RetryEvent } from './agent-event.js';
import type { EndHints } from './classify-end.js';
import type { CommandWrapper } from './spawn-command.js';

export interface InvocationOptions {
  prompt: string;
  model?: string;
  /** Passed through to the CLI before the prompt. */
  extraArgs?: string[];
}

/** How to start one agent run. The prompt travels as an argv element or on stdin, never through a shell. */
export interface Invocation {
  args: string[];
  /** Added to the environment the caller gives the child. */
  env: Record<string, string>;
  stdin: 'ignore' | { text: string };
}

/** Turns an agent CLI's stdout, one line at a time, into events. One parser per run: it may keep state. */
export interface StreamParser {
  parseLine(line: string): AgentEvent[];
}

export interface PreflightContext {
  /** A path, or a bare name looked up on `env.PATH`. */
  binaryPath: string;
  env: NodeJS.ProcessEnv;
  isRoot: boolean;
  /**
   * The run's sandbox, when it has one: `--version` runs inside it, like the
   * agent (the binary may be one the checkout holds), from `cwd`.
   */
  box?: { wrap: CommandWrapper; cwd: string };
}

export type PreflightResult = { ok: true; version?: string } | { ok: false; reason: string };

/**
 * Why an agent cannot run here, found before it starts: which of the two
 * kinds that stop a run (exit 4), what failed, and what a person does about it.
 */
export interface NotReady {
  ok: false;
  kind: 'auth' | 'not-startable';
  /** What failed, naming the agent: `Claude Code refuses --dangerously-skip-permissions as root`. */
  reason: string;
  /** How to fix it, a clause each: `set IS_SANDBOX=1 …, or run as a normal user`. */
  fix: readonly string[];
}

export type ReadyCheck = { ok: true; version?: string } | NotReady;

export interface AgentAdapter {
  /** The provider name used in config and on the command line, e.g. `claude`. */
  readonly name: string;
  readonly displayName: string;
  /** The binary looked up on PATH when no agent path is configured. */
  readonly defaultBinary: string;
  buildInvocation(opts: InvocationOptions): Invocation;
  createParser(): StreamParser;
  /** Checks that the CLI can run here, before any iteration starts: `checkReady` said in one line. */
  preflight(ctx: PreflightContext): Promise<PreflightResult>;
  /** Checks that the CLI can run here, and when it cannot, of which kind the failure is and how to fix it. */
  checkReady(ctx: PreflightContext): Promise<ReadyCheck>;
  /** How to get the CLI, e.g. `npm i -g @openai/codex`. */
  readonly install: string;
  /** How a person logs the CLI in, said when it cannot authenticate. */
  readonly login: string;
  /** What the CLI's exit codes mean beyond its words. */
  readonly endHints: EndHints;
  /** The API the CLI talks to, for a cheap reachability probe; undefined when ralph cannot tell. */
  apiBase(env: NodeJS.ProcessEnv, extraArgs: readonly string[]): string | undefined;
  /** The command that reopens a session interactively, where the CLI can. */
  resumeCommand(sessionId: string): string[] | undefined;
  /** An API retry the CLI reports only on stderr (Gemini CLI's "Attempt 2 failed…"), as a retry event. */
  stderrRetry(line: string): RetryEvent | undefined;
}

/** An adapter ready to run: its binary, model, extra arguments and environment. */
export interface AgentSetup {
  adapter: AgentAdapter;
  binaryPath: string;
  model?: string;
  extraArgs: string[];
  /** The environment the agent runs with: the user's own, plus config overrides. */
  env: NodeJS.ProcessEnv;
}
