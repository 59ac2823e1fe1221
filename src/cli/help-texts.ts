/** What `ralph run --help` and `ralph goal --help` end with: examples, then the exit codes a script can test. */
import { ExitCode } from '../core/errors.js';

const table = (rows: readonly (readonly [string, string])[]): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
};

function exitCodes(workLeft: string): string[] {
  return [
    'Exit codes:',
    ...table([
      [String(ExitCode.Success), 'done'],
      [String(ExitCode.WorkLeft), workLeft],
      [String(ExitCode.Usage), 'usage or validation error; nothing changed'],
      [String(ExitCode.LimitReached), 'a limit was reached (iterations, cost, time, outage wait)'],
      ['4', 'the agent cannot authenticate or cannot be started; nothing counted'],
      [String(ExitCode.Locked), 'another live run holds the lock; nothing changed'],
      [String(ExitCode.Interrupted), 'interrupted (Ctrl-C)'],
    ]),
  ];
}

export const RUN_HELP_AFTER = [
  '',
  'Examples:',
  ...table([
    ['ralph run', 'the only PRD (else main): the TUI on a terminal, plain lines elsewhere'],
    ['ralph run billing --headless', 'plain lines even on a terminal (ssh, tmux logs)'],
    ['ralph run path/to/prd.json -n 10', 'a prd.json anywhere, at most 10 iterations'],
    ['ralph run billing --story US-003', 'only that story'],
    ['ralph run billing --parallel 4', 'up to four independent stories at once'],
    ['ralph run billing --dry-run', 'print the prompt the next story gets; run nothing'],
  ]),
  '',
  ...exitCodes('stopped with work left (a story parked after its retries)'),
].join('\n');

export const GOAL_HELP_AFTER = [
  '',
  'Examples:',
  ...table([
    ['ralph goal "make the CLI start in under 100 ms"', 'the agent plans the steps, then works them'],
    ['ralph goal --file SPRINT.yaml', 'a goal file (workflow: ralph)'],
    ['ralph goal "…" -c "npm test passes" -n 20', 'with a success criterion, at most 20 iterations'],
    ['ralph goal "…" --headless --no-worktree', 'plain lines, in the current checkout'],
  ]),
  '',
  ...exitCodes('stopped with work left (needs a human, or failed iterations in a row)'),
].join('\n');
