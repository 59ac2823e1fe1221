import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../core/errors.js';
import { checkWebhookUrl, redactUrl } from '../../core/notification.js';
import { PROVIDERS } from '../../state/providers.js';

export type { RunOptions } from '../../app/command-options.js';

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

const positiveNumber = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};

/**
 * `--notify URL`, repeatable; a URL that cannot be posted to is a usage error
 * before anything runs. The error names it by scheme and host only (the
 * parser's own error would echo it whole: user, password, path and query are
 * a webhook's secret).
 */
const webhookUrl = (value: string, previous: string[] = []): string[] => {
  const checked = checkWebhookUrl(value);
  if (!checked.ok) {
    const named = checked.reason === 'not a URL' ? 'the value given' : redactUrl(value);
    throw new UsageError(`option '--notify <url>': ${named} is not a webhook URL (${checked.reason})`);
  }
  return [...previous, checked.url];
};

/** `--notify` and `--wait`: reaching the person away from the terminal. The same for a PRD run and a goal run. */
export function addReachOptions(command: Command, wait: string): Command {
  return command
    .option(
      '--notify <url>',
      'POST a JSON event (event, text, prd, story, passed, total, costUsd, at) to this webhook; repeatable',
      webhookUrl,
    )
    .option('--wait', wait);
}

export const OUTAGE_WAIT_HELP =
  'how long to wait out an unreachable, overloaded or failing agent API before stopping with exit 3 (default 7200)';

export const FORCE_HELP =
  "take the run's lock even if another run seems to hold it (only when you know that run is gone)";

/**
 * `--worktree`/`--no-worktree`, `--branch`, `--allow-dirty`, `--force`,
 * `--push`, `--pr`: the same for a PRD run and a goal run. `done` says when the
 * on-complete actions run.
 */
export function addWorkspaceOptions(command: Command, done: string): Command {
  return command
    .option(
      '--worktree',
      'run in the worktree .ralph/worktrees/<name> (the default unless worktree.enabled: false)',
    )
    .option('--no-worktree', 'run in the current checkout')
    .option('--branch <name>', 'branch to work on (default: the PRD branchName, else ralph/<name>)')
    .option('--allow-dirty', 'stash uncommitted changes instead of refusing to start')
    .option('--force', FORCE_HELP)
    .option('--push', `push the branch when ${done} (config onComplete.push)`)
    .option('--pr', `push and open a pull request with gh when ${done} (config onComplete.createPR)`);
}

/** `--sandbox` / `--no-sandbox`: the same for a PRD run and a goal run. */
export function addSandboxOptions(command: Command): Command {
  return command
    .option(
      '--sandbox',
      'run the agent, its gates and hooks in a sandbox (bubblewrap on Linux, sandbox-exec on macOS): they write only the checkout (config sandbox.enabled)',
    )
    .option('--no-sandbox', 'run without a sandbox even if the config asks for one');
}

/** The `ralph run` options (contract). */
export function addRunOptions(command: Command): Command {
  const base = command
    .addOption(new Option('--agent <name>', 'agent CLI to run (env RALPH_AGENT)').choices([...PROVIDERS]))
    .option('--agent-path <path>', 'the agent binary to run (env RALPH_AGENT_PATH)')
    .option('--model <name>', 'model to ask the agent for')
    .option('-n, --max-iterations <n>', 'iteration limit (default: remaining stories + 5)', positiveInt)
    .option('-t, --timeout <secs>', 'wall-clock limit per iteration (default 1800)', positiveInt)
    .option('--idle-timeout <secs>', 'kill an agent silent this long (default 300)', positiveInt)
    .option('--max-retries <n>', 'attempts per story before it is parked (default 3)', positiveInt)
    .option('--max-cost <usd>', 'stop before exceeding this spend', positiveNumber)
    .option(
      '--max-cost-per-story <usd>',
      'park a story whose attempts together reach this spend (config limits.maxCostPerStory)',
      positiveNumber,
    )
    .option('--outage-wait <secs>', OUTAGE_WAIT_HELP, positiveInt)
    .option('-s, --story <id>', 'run only this story')
    .option('-r, --resume-from <id>', 'skip stories before this one')
    .option('-d, --dry-run', 'print the prompt for the next story; run nothing')
    .option('--headless', 'plain line output even on a TTY')
    .option('--json', 'NDJSON events on stdout (implies --headless)');
  return addSandboxOptions(
    addReachOptions(
      addWorkspaceOptions(base, 'every story has passed'),
      'when only stories waiting for answers are left, wait for the answers instead of exiting 1',
    ),
  )
    .option(
      '--parallel <n>',
      'run up to n independent stories at once, each in its own worktree, landed through a merge queue (default 1)',
      positiveInt,
    )
    .option(
      '--worker',
      'with --story: one job of a run spread over machines; the verified story branch is pushed to origin, the task file untouched',
    )
    .option('-v, --verbose', "show the agent's own text and tool output")
    .option(
      '-l, --log <file>',
      'also write the human-readable log here (default .ralph/runs/<name>/ralph.log)',
    );
}
