/**
 * The agent's own interactive mode with the user's terminal handed over:
 * ralph starts it, gets out of the way until it exits, then checks the file.
 */
import { spawn } from 'node:child_process';
import { UsageError } from '../core/errors.js';

export interface InteractiveRequest {
  /** The full PRD-writer prompt. */
  instructions: string;
  /** A short first message, for CLIs that take the instructions as a system prompt. */
  kickoff: string;
  model?: string;
}

/**
 * The argv that opens a provider's interactive session with the prompt
 * already sent. Claude Code takes the instructions as an appended system
 * prompt, so the conversation opens with the user's own words; the others
 * get the whole prompt as the first message. The config's `agent.args` are
 * meant for headless runs (`--max-turns` and the like) and are not passed.
 */
export function interactiveArgs(provider: string, req: InteractiveRequest): string[] {
  const model = (flag: string): string[] => (req.model ? [flag, req.model] : []);
  switch (provider) {
    case 'claude':
      // `--` keeps a first message that starts with `-` from being read as an option.
      return ['--append-system-prompt', req.instructions, ...model('--model'), '--', req.kickoff];
    case 'codex':
      return [...model('-m'), '--', req.instructions];
    case 'gemini':
      return [...model('-m'), '--prompt-interactive', req.instructions];
    case 'opencode':
      return [...model('-m'), '--prompt', req.instructions];
    case 'cursor':
      return [...model('--model'), req.instructions];
    default:
      throw new UsageError(`interactive PRD writing is not available for the agent "${provider}"`, [
        'write the PRD in one shot instead: ralph new <name> --from <feature.md | "text">',
      ]);
  }
}

export interface SessionEnd {
  exitCode: number | null;
  signal: string | null;
}

/**
 * Runs the agent in the foreground of this terminal (same process group, so
 * it can read the keyboard) with stdio inherited and no shell. Ctrl-C belongs
 * to the agent while it runs: ralph ignores SIGINT and passes SIGTERM on.
 */
export function runInteractiveSession(
  binaryPath: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<SessionEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(binaryPath, args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    const ignore = () => undefined;
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
    };
    const onTerm = forward('SIGTERM');
    const onHup = forward('SIGHUP');
    process.on('SIGINT', ignore);
    process.on('SIGTERM', onTerm);
    process.on('SIGHUP', onHup);
    const cleanup = () => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
    };
    child.once('error', (error) => {
      cleanup();
      reject(new UsageError(`could not start ${binaryPath}: ${error.message}`));
    });
    child.once('exit', (exitCode, signal) => {
      cleanup();
      resolve({ exitCode, signal });
    });
  });
}
