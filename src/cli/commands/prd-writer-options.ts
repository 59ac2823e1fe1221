/** The options of `ralph new` and `ralph edit`, apart from the commands: the program loads a command only when it runs. */
import { type Command, Option } from 'commander';
import type { AgentChoice } from '../../agents/agent-setup.js';
import { PROVIDERS } from '../../state/providers.js';

export interface PrdWriterOptions extends AgentChoice {
  /** A feature description file, `-` for stdin, or the description itself: write unattended. */
  from?: string;
}

/** The options `ralph new` and `ralph edit` share. */
export function addPrdWriterOptions(command: Command): Command {
  return command
    .option(
      '--from <file|text>',
      'write unattended from a description (a file, "-" for stdin, or the text itself); no questions asked',
    )
    .addOption(new Option('--agent <name>', 'agent CLI to run (env RALPH_AGENT)').choices([...PROVIDERS]))
    .option('--agent-path <path>', 'the agent binary to run (env RALPH_AGENT_PATH)')
    .option('--model <name>', 'model to ask the agent for');
}
