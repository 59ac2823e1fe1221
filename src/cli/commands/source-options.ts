import { type Command, Option } from 'commander';

export type { SourceFlags } from '../../app/command-options.js';

/** `--source github [--label L] [--repo OWNER/REPO]`: a label's open issues as the stories (ids GH-<n>). */
export function addSourceOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--source <name>',
        "the label's open issues are the stories (ids GH-<n>), instead of a task file",
      ).choices(['github']),
    )
    .option('--label <label>', 'with --source github: the label that marks the stories (default ralph)')
    .option('--repo <owner/repo>', 'with --source github: the repository (default: the origin remote)');
}
