import { type CleanOptions, type CleanResult, cleanWorkspace } from '../../app/clean.js';
import { ExitCode } from '../../core/errors.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print } from '../output.js';

export interface CleanCommandOptions extends CleanOptions {
  cwd?: string;
}

/** `ralph clean [name]`: `cleanWorkspace`, and what it did in a line each. */
export async function cleanCommand(
  name: string | undefined,
  opts: CleanCommandOptions = {},
): Promise<number> {
  const root = await findProjectRoot(opts.cwd ?? process.cwd());
  const result = await cleanWorkspace(root, name, opts);
  for (const line of cleanLines(result, opts)) print(line);
  return ExitCode.Success;
}

function cleanLines({ checkout, branch }: CleanResult, opts: CleanOptions): string[] {
  const lines: string[] = [];
  if (checkout?.done === 'forgot-worktree')
    lines.push(`forgot the worktree ${checkout.path} (its folder was already gone)`);
  if (checkout?.done === 'removed-worktree') lines.push(`removed the worktree ${checkout.path}`);
  if (checkout?.done === 'deleted-folder') lines.push(`deleted the folder ${checkout.path}`);
  if (branch?.deleted) lines.push(`deleted the branch ${branch.name}`);
  else if (branch)
    lines.push(
      `the branch ${branch.name} is kept${opts.deleteBranch ? '' : ' (--delete-branch deletes it)'}`,
    );
  return lines;
}
