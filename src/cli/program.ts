import { Command, InvalidArgumentError, Option } from 'commander';
import { PROVIDERS } from '../state/providers.js';
import { canDrawLive } from '../ui/tui/can-draw-live.js';
import type { DoctorOptions } from './commands/doctor.js';
import { addGoalOptions, type GoalOptions } from './commands/goal-options.js';
import { addPrdWriterOptions, type PrdWriterOptions } from './commands/prd-writer-options.js';
import { addRunOptions, type RunOptions } from './commands/run-options.js';
import { addSourceOptions, type SourceFlags } from './commands/source-options.js';
import { GOAL_HELP_AFTER, RUN_HELP_AFTER } from './help-texts.js';
import { addScaleOutCommands } from './scale-out-commands.js';
import { VERSION } from './version.js';

/** Written here rather than imported from the command, which loads only when it runs. */
const DEFAULT_SERVE_PORT = 7257;
const DEFAULT_SERVE_HOST = '127.0.0.1';

const portNumber = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
};

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
    .showHelpAfterError('(run `ralph help` for usage)')
    .helpCommand(false)
    .exitOverride();

  // The loop first: `ralph help` lists the commands in this order.
  addRunOptions(
    addSourceOptions(
      program
        .command('run')
        .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
        .description('run the loop until every story passes')
        .addHelpText('after', RUN_HELP_AFTER),
    ),
  ).action(async (target: string | undefined, opts: RunOptions) => {
    const { runCommand } = await import('./commands/run.js');
    process.exitCode = await runCommand(target, opts);
  });

  addGoalOptions(
    program
      .command('goal')
      .argument('[goal]', 'what to achieve, as text (or use --file)')
      .description('goal mode: the agent plans steps, executes and reflects until the goal is complete')
      .addHelpText('after', GOAL_HELP_AFTER),
  ).action(async (goal: string | undefined, opts: GoalOptions) => {
    const { goalCommand } = await import('./commands/goal.js');
    process.exitCode = await goalCommand(goal, opts);
  });

  program
    .command('init')
    .description('scaffold .ralph/config.yaml, .gitignore entries and an example PRD')
    .action(async () => {
      const { initCommand } = await import('./commands/init.js');
      process.exitCode = await initCommand();
    });

  addSourceOptions(
    program
      .command('list')
      .description('every PRD: name, title, done/total')
      .option('--json', 'machine-readable output'),
  ).action(async (opts: { json?: boolean } & SourceFlags) => {
    const { listCommand } = await import('./commands/list.js');
    process.exitCode = await listCommand(opts);
  });

  addSourceOptions(
    program
      .command('status')
      .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
      .description('stories with their state, the next story, and the current run')
      .option('--json', 'machine-readable output'),
  ).action(async (target: string | undefined, opts: { json?: boolean } & SourceFlags) => {
    const { statusCommand } = await import('./commands/status.js');
    process.exitCode = await statusCommand(target, opts);
  });

  addSourceOptions(
    program
      .command('validate')
      .argument('[target]', 'PRD name, or path to a prd.json, prd.md or spec directory')
      .description('check a task file and the config; exit 2 on any error')
      .option('--strict', 'treat warnings as errors')
      .option('--json', 'one JSON object on stdout: the counts and every issue with its file, line and path'),
  ).action(async (target: string | undefined, opts: { strict?: boolean; json?: boolean } & SourceFlags) => {
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
    .addOption(
      new Option('--agent <name>', 'the agent a run would use (env RALPH_AGENT)').choices([...PROVIDERS]),
    )
    .option('--agent-path <path>', 'its binary, as `ralph run --agent-path` takes it (env RALPH_AGENT_PATH)')
    .option(
      '--live',
      'make one tiny real request through each installed agent: login and API checked (costs a little)',
    )
    .action(async (opts: DoctorOptions) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      process.exitCode = await doctorCommand(opts);
    });

  addScaleOutCommands(program);

  program
    .command('answer')
    .argument('<words...>', '[target] <id> "<text>": the run (PRD or goal run), the question id, the answer')
    .usage('[target] <id> "<text>"')
    .description("answer a waiting story's question (a live run picks it up within seconds)")
    .action(async (words: string[]) => {
      const { answerCommand } = await import('./commands/answer.js');
      process.exitCode = await answerCommand(words);
    });

  program
    .command('serve')
    .description("the project's web page: runs, stories, live log, questions; token-protected")
    .option(
      '--port <n>',
      `port to listen on, 0 for any free one (default ${DEFAULT_SERVE_PORT})`,
      portNumber,
      DEFAULT_SERVE_PORT,
    )
    .option(
      '--host <host>',
      `address to listen on (default ${DEFAULT_SERVE_HOST}; any other warns)`,
      DEFAULT_SERVE_HOST,
    )
    .action(async (opts: { port: number; host: string }) => {
      const { serveCommand } = await import('./commands/serve.js');
      process.exitCode = await serveCommand(opts);
    });

  program
    .command('help')
    .argument('[command...]', 'the command to explain (`ralph help ci github` for a subcommand)')
    .description('usage of ralph, or of one command')
    .action(async (names: string[]) => {
      if (names.length === 0) return program.outputHelp();
      // The parser answers, as for `ralph <command> --help`; a mistyped name reaches it without
      // `--help`, so that it says which command was meant, as it does for `ralph stauts`.
      let command = program;
      for (const [i, name] of names.entries()) {
        const sub = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (sub === undefined) {
          if (command.commands.length === 0) break;
          await buildProgram().parseAsync(names.slice(0, i + 1), { from: 'user' });
          return;
        }
        command = sub;
      }
      command.outputHelp();
    });

  // A parser error names the help of the command it happened in.
  const pointAtHelp = (command: Command, path: readonly string[]) => {
    for (const sub of command.commands) {
      const names = [...path, sub.name()];
      sub.showHelpAfterError(`(run \`ralph help ${names.join(' ')}\` for usage)`);
      pointAtHelp(sub, names);
    }
  };
  pointAtHelp(program, []);

  return program;
}

/**
 * Bare `ralph` on a terminal opens the TUI on the default PRD, like Chief;
 * elsewhere (no terminal, or CI set, where the TUI cannot be drawn and a
 * loop would start unasked) it explains itself. Not an action of the
 * program: with one, the parser would take a mistyped command for its
 * argument instead of suggesting the command meant.
 */
export async function runBare(program: Command): Promise<number> {
  if (process.stdout.isTTY && process.stdin.isTTY && canDrawLive()) {
    const { runCommand } = await import('./commands/run.js');
    return runCommand(undefined, {});
  }
  program.outputHelp();
  return 0;
}
