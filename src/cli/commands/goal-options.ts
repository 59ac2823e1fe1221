/** The options of `ralph goal`, apart from the command: the program loads a command only when it runs. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_GOAL_MAX_ITERATIONS } from '../../app/command-options.js';
import { PROVIDERS } from '../../state/providers.js';
import { addReachOptions, addSandboxOptions, addWorkspaceOptions, OUTAGE_WAIT_HELP } from './run-options.js';

export type { GoalOptions } from '../../app/command-options.js';

const wholeNumber = (min: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
  return n;
};
const positiveNumber = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The `ralph goal` options. */
export function addGoalOptions(command: Command): Command {
  const base = command
    .option('-f, --file <file>', 'read the goal from a goal file (SPRINT.yaml with workflow: ralph)')
    .option(
      '--name <name>',
      'the run name: its folder, worktree and branch ralph/<name> (default: from the goal file, or the first words of the goal)',
    )
    .option('-c, --criterion <text>', 'a success criterion (repeatable)', collect)
    .option('--min-iterations <n>', 'refuse goal-complete before this iteration (default 0)', wholeNumber(0))
    .option(
      '--idle-threshold <n>',
      'iterations without progress before reflecting (default 3)',
      wholeNumber(1),
    )
    .addOption(new Option('--agent <name>', 'agent CLI to run (env RALPH_AGENT)').choices([...PROVIDERS]))
    .option('--agent-path <path>', 'the agent binary to run (env RALPH_AGENT_PATH)')
    .option('--model <name>', 'model to ask the agent for')
    .option(
      '-n, --max-iterations <n>',
      `iteration limit (default ${DEFAULT_GOAL_MAX_ITERATIONS})`,
      wholeNumber(1),
    )
    .option('-t, --timeout <secs>', 'wall-clock limit per iteration (default 1800)', wholeNumber(1))
    .option('--idle-timeout <secs>', 'kill an agent silent this long (default 300)', wholeNumber(1))
    .option(
      '--max-retries <n>',
      'failed iterations in a row before the run stops (default 3)',
      wholeNumber(1),
    )
    .option('--max-cost <usd>', 'stop before exceeding this spend', positiveNumber)
    .option('--outage-wait <secs>', OUTAGE_WAIT_HELP, wholeNumber(1))
    .option('-d, --dry-run', 'print the prompt of the next iteration; run nothing')
    .option('--headless', 'plain line output even on a TTY')
    .option('--json', 'NDJSON events on stdout (implies --headless)');
  return addSandboxOptions(
    addReachOptions(
      addWorkspaceOptions(base, 'the goal is complete'),
      'when the agent needs a person, wait for the answer (ralph answer) instead of exiting 1',
    ),
  )
    .option('-v, --verbose', "show the agent's own text and tool output")
    .option(
      '-l, --log <file>',
      'also write the human-readable log here (default .ralph/runs/<name>/ralph.log)',
    );
}
