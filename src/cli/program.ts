import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { canDrawLive } from '../ui/tui/can-draw-live.js';
import { addGoalOptions, type GoalOptions } from './commands/goal-options.js';
import { addPrdWriterOptions, type PrdWriterOptions } from './commands/prd-writer-options.js';
import { addRunOptions, type RunOptions } from './commands/run-options.js';
import { addScaleOutCommands } from './scale-out-commands.js';
import { VERSION } from './version.js';

const unknownCommand = (name: string): UsageError =>
  new UsageError(`unknown command '${name}'`, ['`ralph help` lists the commands']);

/**
 * The command tree. Each action sets process.exitCode or throws a RalphError.
 * A command's module is imported when it runs, so `ralph --version` or
 * `ralph status` never load the agent loop, the TUI or React.
 */
export function buildProgram(): Command {
  const program = new Command('ralph')
    .description('Run AI coding agents in a Ralph loop: one story per fresh agent, verified by the tool.')
    .usage('[options] [command]')
    .version(VERSION, '-V, --version')
    // The parser's own errors read like every other error: `ralph: …`.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'ralph: ')) })
    .showHelpAfterError('(run ralph help for usage)')
    .helpCommand(false)
    .exitOverride();

  program
    .command('init')
    .description('scaffold .ralph/config.yaml, .gitignore entries and an example PRD')
    .action(async () => {
      const { initCommand } = await import('./commands/init.js');
      process.exitCode = await initCommand();
    });

  program
    .command('list')
    .description('every PRD: name, title, done/total')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const { listCommand } = await import('./commands/list.js');
      process.exitCode = await listCommand(opts);
    });

  program
    .command('status')
    .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
    .description('stories with their state, the next story, and the current run')
    .option('--json', 'machine-readable output')
    .action(async (target: string | undefined, opts: { json?: boolean }) => {
      const { statusCommand } = await import('./commands/status.js');
      process.exitCode = await statusCommand(target, opts);
    });

  program
    .command('validate')
    .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
    .description('check a task file and the config; exit 2 on any error')
    .option('--strict', 'treat warnings as errors')
    .action(async (target: string | undefined, opts: { strict?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js');
      process.exitCode = await validateCommand(target, opts);
    });

  program
    .command('convert')
    .argument('<file>', 'a prd.md or prd.json')
    .addOption(new Option('--to <format>', 'output format').choices(['json', 'md']).makeOptionMandatory())
    .option('-o, --output <file>', 'write here instead of stdout (refuses to overwrite the input)')
    .description('deterministic prd.md <-> prd.json conversion')
    .action(async (file: string, opts: { to: 'json' | 'md'; output?: string }) => {
      const { convertCommand } = await import('./commands/convert.js');
      process.exitCode = await convertCommand(file, opts);
    });

  program
    .command('report')
    .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
    .description('per-story attempts, durations, tokens and cost')
    .option('--json', 'machine-readable output')
    .action(async (target: string | undefined, opts: { json?: boolean }) => {
      const { reportCommand } = await import('./commands/report.js');
      process.exitCode = await reportCommand(target, opts);
    });

  program
    .command('logs')
    .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
    .description("the run's log, or one iteration as a readable transcript")
    .option(
      '--iteration <n>',
      'iteration n: what the agent said and ran, the gates, the verdict',
      (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1)
          throw new InvalidArgumentError('expected a whole number of at least 1');
        return n;
      },
    )
    .option('--raw', "with --iteration: the agent's raw stream, exactly as it printed it")
    .action(async (target: string | undefined, opts: { iteration?: number; raw?: boolean }) => {
      const { logsCommand } = await import('./commands/logs.js');
      process.exitCode = await logsCommand(target, opts);
    });

  program
    .command('merge')
    .argument('[name]', 'the PRD whose branch to merge (default: the only worktree, else the default PRD)')
    .description('merge a PRD branch into the branch it came from, with a merge commit')
    .action(async (name: string | undefined) => {
      const { mergeCommand } = await import('./commands/merge.js');
      process.exitCode = await mergeCommand(name);
    });

  program
    .command('clean')
    .argument('[name]', 'the PRD whose worktree to remove')
    .description("remove a PRD's worktree (and with --delete-branch its branch)")
    .option('--delete-branch', 'also delete the branch (refused if unmerged, unless --force)')
    .option('--force', 'discard uncommitted work in the worktree; delete an unmerged branch')
    .action(async (name: string | undefined, opts: { deleteBranch?: boolean; force?: boolean }) => {
      const { cleanCommand } = await import('./commands/clean.js');
      process.exitCode = await cleanCommand(name, opts);
    });

  addPrdWriterOptions(
    program
      .command('new')
      .argument('[name]', 'PRD name (default: main)')
      .argument('[context...]', 'what the feature is, to start the conversation')
      .description('write a new PRD with the agent -> .ralph/prds/<name>/prd.md'),
  ).action(async (name: string | undefined, context: string[], opts: PrdWriterOptions) => {
    const { newCommand } = await import('./commands/new.js');
    process.exitCode = await newCommand(name, context, opts);
  });

  addPrdWriterOptions(
    program
      .command('edit')
      .argument('[name]', 'PRD name, or path to a prd.md')
      .description('change a PRD with the agent; story ids and statuses are kept'),
  ).action(async (name: string | undefined, opts: PrdWriterOptions) => {
    const { editCommand } = await import('./commands/edit.js');
    process.exitCode = await editCommand(name, opts);
  });

  program
    .command('doctor')
    .description('which agent CLIs are installed and usable here, git, gh')
    .option('--json', 'machine-readable output')
    .option(
      '--live',
      'make one tiny real request through each installed agent: login and API checked (costs a little)',
    )
    .action(async (opts: { json?: boolean; live?: boolean }) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      process.exitCode = await doctorCommand(opts);
    });

  addGoalOptions(
    program
      .command('goal')
      .argument('[goal]', 'what to achieve, as text (or use --file)')
      .description('goal mode: the agent plans steps, executes and reflects until the goal is complete'),
  ).action(async (goal: string | undefined, opts: GoalOptions) => {
    const { goalCommand } = await import('./commands/goal.js');
    process.exitCode = await goalCommand(goal, opts);
  });

  addRunOptions(
    program
      .command('run')
      .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
      .description('run the loop until every story passes'),
  ).action(async (target: string | undefined, opts: RunOptions) => {
    const { runCommand } = await import('./commands/run.js');
    process.exitCode = await runCommand(target, opts);
  });

  addScaleOutCommands(program);

  program
    .command('help')
    .argument('[command]', 'the command to explain')
    .description('usage of ralph, or of one command')
    .action((name: string | undefined) => {
      if (name === undefined) return program.outputHelp();
      const command = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!command) throw unknownCommand(name);
      command.outputHelp();
    });

  // Bare `ralph` on a terminal opens the TUI on the default PRD, like Chief; elsewhere (no terminal,
  // or CI set, where the TUI cannot be drawn and a loop would start unasked) it explains itself.
  program.argument('[command]').action(async (command: string | undefined) => {
    if (command !== undefined) throw unknownCommand(command);
    if (process.stdout.isTTY && process.stdin.isTTY && canDrawLive()) {
      const { runCommand } = await import('./commands/run.js');
      process.exitCode = await runCommand(undefined, {});
    } else program.outputHelp();
  });

  return program;
}
