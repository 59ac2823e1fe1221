import { relative, sep } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { checkStoryQuality, type PreviousStory } from '../../core/story-quality.js';
import type { ValidationIssue } from '../../core/validation-issue.js';
import { runGit } from '../../git/git.js';
import { readPrd } from '../../sources/load-task-source.js';
import { prdJsonFormat } from '../../sources/prd-json-format.js';
import { prdMdFormat } from '../../sources/prd-md-format.js';
import { loadConfig } from '../../state/config.js';
import { findProjectRoot } from '../../state/project-root.js';
import { type ResolvedTarget, resolveTarget } from '../../state/resolve-target.js';
import { showIssue } from '../show-issue.js';

/**
 * Checks the task file and the config; reads only, writes nothing. Story
 * quality advice goes to stdout as warnings; `--strict` makes every warning
 * an error (printed to stderr, exit 2).
 */
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
  const quality = result.ok
    ? checkStoryQuality(result.prd.stories, { previous: await committedStories(root, resolved) })
    : [];

  // --strict: every warning is an error, and is shown as one.
  const judged = (issue: ValidationIssue): ValidationIssue =>
    opts.strict ? { ...issue, severity: 'error' } : issue;
  for (const issue of issues) console.error(showIssue(judged(issue)));
  for (const issue of quality) (opts.strict ? console.error : console.log)(showIssue(judged(issue)));
  const all = [...issues, ...quality];
  const errors = all.filter((i) => judged(i).severity === 'error').length;
  const shown = relative(cwd, resolved.taskPath) || resolved.taskPath;
  if (errors > 0 || !result.ok) {
    console.error(`ralph: ${shown}: ${errors} error${errors === 1 ? '' : 's'}`);
    return ExitCode.Usage;
  }
  const warnings = all.length;
  console.log(
    `${shown}: valid, ${result.prd.stories.length} stories${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`,
  );
  return ExitCode.Success;
}

/**
 * The stories of the task file as committed at HEAD, so an id that now names
 * a different story can be reported. Empty when the file is not committed or
 * is not a single-file format.
 */
async function committedStories(root: string, target: ResolvedTarget): Promise<PreviousStory[]> {
  const format =
    target.format === 'prd-md' ? prdMdFormat : target.format === 'prd-json' ? prdJsonFormat : undefined;
  const rel = relative(root, target.taskPath);
  if (!format || rel === '' || rel.startsWith('..')) return [];
  const shown = await runGit(['show', `HEAD:${rel.split(sep).join('/')}`], {
    cwd: root,
    allowFailure: true,
  }).catch(() => undefined);
  if (shown?.exitCode !== 0) return [];
  const parsed = format.parse(shown.stdout, target.taskPath);
  return parsed.ok ? parsed.prd.stories.map((s) => ({ id: s.id, title: s.title, status: s.status })) : [];
}
