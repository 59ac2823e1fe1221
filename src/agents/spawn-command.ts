/**
 * Every process ralph starts for a run — the agent, its gates, its hooks —
 * starts here, in a process group of its own, never through a shell of
 * ralph's making. A `CommandWrapper` may rewrite the command first: a
 * sandbox wraps it in `bwrap` (or `sandbox-exec`) without any caller knowing.
 */
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';

/** A command about to start: what runs, where, with which environment. */
export interface Command {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Rewrites a command before it starts; `label` names the sandbox it puts commands in (`bwrap`). */
export type CommandWrapper = ((command: Command) => Command) & { readonly label?: string };

/** Starts a command in its own process group (so the whole group can be stopped), wrapped when asked. */
export function spawnCommand(command: Command, stdio: StdioOptions, wrap?: CommandWrapper): ChildProcess {
  const run = wrap ? wrap(command) : command;
  return spawn(run.file, [...run.args], { cwd: run.cwd, env: run.env, detached: true, stdio });
}
