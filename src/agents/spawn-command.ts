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
  /** Bytes the command reads on file descriptor 3, through a pipe (bubblewrap's `--seccomp 3` reads its filter there). */
  fd3?: Buffer;
  /** Called once the command has exited (the sandbox copies refreshed logins back then). */
  onExit?: () => void;
}

/** Rewrites a command before it starts; `label` names the sandbox it puts commands in (`bwrap`). */
export type CommandWrapper = ((command: Command) => Command) & { readonly label?: string };

/** Starts a command in its own process group (so the whole group can be stopped), wrapped when asked. */
export function spawnCommand(command: Command, stdio: StdioOptions, wrap?: CommandWrapper): ChildProcess {
  const run = wrap ? wrap(command) : command;
  const child = startCommand(run, stdio);
  if (run.onExit) child.once('close', run.onExit);
  return child;
}

function startCommand(run: Command, stdio: StdioOptions): ChildProcess {
  if (run.fd3 === undefined) {
    return spawn(run.file, [...run.args], { cwd: run.cwd, env: run.env, detached: true, stdio });
  }
  const three = typeof stdio === 'string' ? [stdio, stdio, stdio] : [...stdio].slice(0, 3);
  const child = spawn(run.file, [...run.args], {
    cwd: run.cwd,
    env: run.env,
    detached: true,
    stdio: [...three, 'pipe'],
  });
  const pipe = child.stdio[3];
  // A command that ends before reading it all closes the pipe: nothing to report, the command's exit says it.
  pipe?.on('error', () => {});
  (pipe as NodeJS.WritableStream | null)?.end(run.fd3);
  return child;
}
