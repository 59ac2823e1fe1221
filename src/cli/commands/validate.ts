import { relative } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import type { ValidationIssue } from '../../core/validation-issue.js';
import { readPrd } from '../../sources/load-task-source.js';
import { loadConfig } from '../../state/config.js';
import { findProjectRoot } from '../../state/project-root.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { showIssue } from '../show-issue.js';

/** Checks the task file and the config; reads only, writes nothing. */
export async function validateCommand(
  target: string | undefined,
  opts: { strict?: boolean },
): Promise<number> {
  const cwd = process.cwd();
  const root = await findProjectRoot(cwd);
  const resolved = await resolveTarget(root, target);
  const result = await readPrd(resolved.taskPath);
  const { issues: configIssues } = await loadConfig(root);
  const issues: ValidationIssue[] = [...(result.ok ? result.warnings : result.issues), ...configIssues];

  for (const issue of issues) console.error(showIssue(issue));
  const errors = issues.filter((i) => i.severity === 'error' || opts.strict).length;
  const shown = relative(cwd, resolved.taskPath) || resolved.taskPath;
  if (errors > 0 || !result.ok) {
    console.error(`ralph: ${shown}: ${errors} error${errors === 1 ? '' : 's'}`);
    return ExitCode.Usage;
  }
  const warnings = issues.length;
  console.log(
    `${shown}: valid, ${result.prd.stories.length} stories${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`,
  );
  return ExitCode.Success;
}
