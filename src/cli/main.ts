#!/usr/bin/env node
import { CommanderError } from 'commander';
import { showIssue } from '../app/show-issue.js';
import { describeSystemError, ExitCode, InvalidInputError, RalphError } from '../core/errors.js';
import { printError } from './output.js';
import { buildProgram, runBare } from './program.js';

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    if (argv.length <= 2) return await runBare(program);
    await program.parseAsync(argv);
    return process.exitCode === undefined ? ExitCode.Success : Number(process.exitCode);
  } catch (error) {
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are successful exits; anything else is a usage error.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
      return ExitCode.Success;
    if (error.code === 'commander.help') return ExitCode.Success;
    return ExitCode.Usage;
  }
  if (error instanceof InvalidInputError) {
    for (const issue of error.issues) printError(showIssue(issue));
    printError(`ralph: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof RalphError) {
    printError(`ralph: ${error.message}`);
    for (const line of error.details) printError(`  ${line}`);
    return error.exitCode;
  }
  // A file or process the system refused (a read-only disk, a full one): what failed, in a sentence.
  const system = describeSystemError(error);
  if (system !== null) {
    printError(`ralph: ${system}`);
    return ExitCode.WorkLeft;
  }
  printError('ralph: unexpected error');
  printError(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
