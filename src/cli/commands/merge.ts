import { mergeWorkspace } from '../../app/merge.js';
import { ExitCode, RalphError } from '../../core/errors.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print, printError } from '../output.js';

export interface MergeCommandOptions {
  cwd?: string;
}

/**
 * `ralph merge [name]`: `mergeWorkspace`, said. On a conflict the files are
 * listed, the merge was aborted and both branches stay as they were (exit 1).
 */
export async function mergeCommand(
  name: string | undefined,
  opts: MergeCommandOptions = {},
): Promise<number> {
  const root = await findProjectRoot(opts.cwd ?? process.cwd());
  const result = await mergeWorkspace(root, name);
  const { branch, base } = result;
  if (result.uncommittedIn !== undefined)
    printError(
      `ralph: note: ${result.uncommittedIn} has uncommitted changes; they are not part of the merge`,
    );
  switch (result.kind) {
    case 'up-to-date':
      print(`${branch} is already merged into ${base}; nothing to do`);
      return ExitCode.Success;
    case 'merged':
      print(`merged ${branch} into ${base} (${result.sha?.slice(0, 7)})`);
      print(`remove the worktree and branch with: ralph clean ${result.name} --delete-branch`);
      return ExitCode.Success;
    case 'conflict':
      throw new RalphError(
        `merging ${branch} into ${base} conflicts; the merge was aborted and both branches are unchanged`,
        'merge-conflict',
        ExitCode.WorkLeft,
        [
          ...(result.files ?? []).map((f) => `conflict: ${f}`),
          `resolve it by hand: git merge --no-ff ${branch}`,
        ],
      );
  }
}
