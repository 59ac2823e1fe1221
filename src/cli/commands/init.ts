import { relative } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { EXAMPLE_PRD_NAME, type InitEntry, initProject } from '../../state/init.js';
import { prdPaths } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { listPrdNames } from '../../state/resolve-target.js';
import { print } from '../output.js';
import { hasCommits, requireGitRepository } from '../require-git.js';

export async function initCommand(): Promise<number> {
  const cwd = process.cwd();
  await requireGitRepository(cwd, '`ralph init`');
  const root = await findProjectRoot(cwd);
  const report = await initProject(root);
  for (const entry of report) {
    const note = entry.note === undefined ? '' : ` (${entry.note})`;
    print(`${entry.action.padEnd(8)} ${relative(cwd, entry.path) || entry.path}${note}`);
  }
  if (!(await hasCommits(root)))
    print('note: the repository has no commits yet; make a first commit before `ralph run`');
  const example = report.find((e) => e.path === prdPaths(root, EXAMPLE_PRD_NAME).md);
  print(`next: ${nextStep(example, await listPrdNames(root), relative(cwd, example?.path ?? ''))}`);
  return ExitCode.Success;
}

/** Where to go from here: the example just written, or the PRDs already there (never a file that was not written). */
function nextStep(example: InitEntry | undefined, prds: readonly string[], examplePath: string): string {
  if (example?.action === 'created') return `edit ${examplePath} (or \`ralph new\`), then \`ralph run\``;
  const [only] = prds;
  if (prds.length === 1 && only !== undefined)
    return `\`ralph validate ${only}\`, then \`ralph run ${only}\` (or \`ralph new <name>\` for another PRD)`;
  if (prds.length > 1) return `\`ralph list\` shows your PRDs; \`ralph run <name>\` runs one`;
  return '`ralph new <name>` writes a PRD with the agent, then `ralph run <name>`';
}
