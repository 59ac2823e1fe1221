import { type Command, InvalidArgumentError, Option } from 'commander';
import { PROVIDERS } from '../state/providers.js';
import type { CiGithubOptions } from './commands/ci.js';
import type { IntegrateOptions, PlanOptions } from './commands/roles.js';
import { FORCE_HELP } from './commands/run-options.js';
import { addSourceOptions } from './commands/source-options.js';

const TARGET = 'PRD name, or path to a prd.json, prd.md or spec directory';

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

/** The options every role shares: which PRD branch, where its checkout is, the lock. */
function roleOptions(command: Command): Command {
  return command
    .option('--branch <name>', 'the PRD branch (default: the PRD branchName, else ralph/<name>)')
    .option('--no-worktree', 'check the PRD branch out in place instead of in .ralph/worktrees/<name>')
    .option('--force', FORCE_HELP);
}

/**
 * The commands that spread one PRD over machines, with git's remote
 * (`origin`) as the shared state: `plan`, `integrate` (the work role is
 * `run --story ID --worker`) and `ci github`, which writes the workflow
 * that runs them as jobs.
 */
export function addScaleOutCommands(program: Command): void {
  roleOptions(
    addSourceOptions(
      program
        .command('plan')
        .argument('[target]', TARGET)
        .description(
          'the stories ready now on origin, for a job matrix (dependencies landed, not verified, not parked)',
        )
        .option('--json', 'one JSON object; `ids` is the matrix')
        .option('--parallel <n>', 'at most n stories (default: every ready story)', positiveInt),
    ),
  ).action(async (target: string | undefined, opts: PlanOptions) => {
    const { planCommand } = await import('./commands/roles.js');
    process.exitCode = await planCommand(target, opts);
  });

  roleOptions(
    program
      .command('integrate')
      .argument('[target]', TARGET)
      .description(
        "land origin's verified story branches on the PRD branch in dependency order, rerunning the gates; push with a lease",
      )
      .option('--json', 'NDJSON events; the last line says what landed and what is next')
      .option('--headless', 'plain line output (the default for this command)')
      .option('-v, --verbose', 'show gate output'),
  ).action(async (target: string | undefined, opts: IntegrateOptions) => {
    const { integrateCommand } = await import('./commands/roles.js');
    process.exitCode = await integrateCommand(target, opts);
  });

  const ci = program.command('ci').description('write CI workflows that run a PRD as jobs');
  ci.command('github')
    .argument('[target]', TARGET)
    .description('write .github/workflows/ralph-<prd>.yml: plan, one job per ready story, integrate')
    .addOption(
      new Option('--agent <name>', 'the agent CLI the story jobs install and run').choices([...PROVIDERS]),
    )
    .option('--parallel <n>', 'story jobs at once (default 4)', positiveInt)
    .option('--runs-on <label>', 'the runner label (default ubuntu-latest)')
    .option('--node <version>', 'Node.js version for setup-node (default 22)')
    .option(
      '--ralph-package <spec>',
      'npm spec the jobs install ralph from (default ralph-cli@<this version>)',
    )
    .option(
      '--max-rounds <n>',
      'rounds one dispatch chain may take before it stops (default 50)',
      positiveInt,
    )
    .option('--force', 'overwrite a workflow that differs')
    .option('--stdout', 'print the workflow instead of writing it')
    .action(async (target: string | undefined, opts: CiGithubOptions) => {
      const { ciGithubCommand } = await import('./commands/ci.js');
      process.exitCode = await ciGithubCommand(target, opts);
    });
}
