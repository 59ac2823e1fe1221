import { relative } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { initProject } from '../../state/init.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print } from '../output.js';
import { hasCommits, requireGitRepository } from '../require-git.js';

export async function initCommand(): Promise<number> {
  const cwd = process.cwd();
  await requireGitRepository(cwd, '`ralph init`');
  const root = await findProjectRoot(cwd);
  const report = await initProject(root);
  for (const entry of report) print(`${entry.action.padEnd(8)} ${relative(cwd, entry.path) || entry.path}`);
  if (!(await hasCommits(root)))
    print('note: the repository has no commits yet; make a first commit before `ralph run`');
  print('next: edit .ralph/prds/example/prd.md (or `ralph new`), then `ralph run`');
  return ExitCode.Success;
}
