import { relative, sep } from 'node:path';
import { wantsGithub } from '../../app/command-options.js';
import { showIssue } from '../../app/show-issue.js';
import { type CriteriaCount, countCriteria, criteriaNote } from '../../core/criteria-count.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { checkStoryQuality, type PreviousStory } from '../../core/story-quality.js';
import type { ValidationIssue } from '../../core/validation-issue.js';
import { runGit } from '../../git/git.js';
import { readPrd } from '../../sources/load-task-source.js';
import { prdJsonFormat } from '../../sources/prd-json-format.js';
import { prdMdFormat } from '../../sources/prd-md-format.js';
import type { ReadResult } from '../../sources/task-source.js';
import { loadConfig } from '../../state/config.js';
import { findProjectRoot } from '../../state/project-root.js';
import { type ResolvedTarget, resolveTarget } from '../../state/resolve-target.js';
import { waitRoute } from '../open-source-target.js';
import { print, printError, printJson } from '../output.js';
import type { SourceFlags } from './source-options.js';

/**
 * Checks the task file and the config in one pass and says how many stories
 * it read; reads only, writes nothing. Each file with errors is named in its
 * own summary line. Warnings (story quality advice included) go to stdout;
 * `--strict` makes every warning an error (printed to stderr, exit 2).
 * `--json` prints the same findings as one JSON object on stdout instead.
 */
export async function validateCommand(
  target: string | undefined,
  opts: { strict?: boolean; json?: boolean } & SourceFlags,
): Promise<number> {
  const cwd = process.cwd();
  const root = await findProjectRoot(cwd);
  const { result, shown, format, previous } = wantsGithub(opts)
    ? await readIssues(target, opts, root)
    : await readTaskFile(target, root, cwd);
  const config = await loadConfig(root);
  const prd = result.ok ? result.prd : result.partial;
  const gated = config.config.checks.length > 0;
  const quality = prd ? checkStoryQuality(prd.stories, { previous, gated }) : [];

  // --strict: every warning is an error, and is shown as one.
  const judged = (issue: ValidationIssue): ValidationIssue =>
    opts.strict ? { ...issue, severity: 'error' } : issue;
  const taskIssues = [...(result.ok ? result.warnings : result.issues), ...quality].map(judged);
  const configIssues = config.issues.map(judged);
  const taskErrors = countErrors(taskIssues);
  const configErrors = countErrors(configIssues);
  const exitCode = taskErrors > 0 || !result.ok || configErrors > 0 ? ExitCode.Usage : ExitCode.Success;
  if (opts.json) {
    const report = {
      ok: exitCode === ExitCode.Success,
      file: shown,
      format,
      stories: prd ? prd.stories.length : null,
      ...(prd ? criteriaJson(countCriteria(prd.stories)) : {}),
      errors: Math.max(taskErrors, result.ok ? 0 : 1),
      warnings: taskIssues.length - taskErrors,
      issues: taskIssues.map((issue) => jsonIssue(issue, cwd)),
      config: {
        file: showPath(config.file, cwd),
        errors: configErrors,
        issues: configIssues.map((issue) => jsonIssue(issue, cwd)),
      },
    };
    printJson(report);
    return exitCode;
  }
  for (const issue of [...taskIssues, ...configIssues]) {
    (issue.severity === 'error' ? printError : print)(showIssue(issue));
  }

  const read = prd ? `${prd.stories.length} ${prd.stories.length === 1 ? 'story' : 'stories'}` : 'no stories';
  if (taskErrors > 0 || !result.ok) {
    printError(`ralph: ${shown}: ${plural(Math.max(taskErrors, 1), 'error')} (read ${read})`);
  } else {
    const warnings = taskIssues.length;
    print(`${shown}: valid, ${read}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`);
    const note = prd ? criteriaNote(countCriteria(prd.stories)) : undefined;
    if (note) print(`  ${note}`);
  }
  if (configErrors > 0) printError(`ralph: ${showPath(config.file, cwd)}: ${plural(configErrors, 'error')}`);
  return exitCode;
}

const criteriaJson = (count: CriteriaCount) => ({
  criteria: count.criteria,
  chiefCriteria: count.criteria + count.nestedBoxes,
});

interface Read {
  result: ReadResult;
  /** The task file (or the issues' address) as the summary names it. */
  shown: string;
  format: string;
  previous: PreviousStory[];
}

async function readTaskFile(target: string | undefined, root: string, cwd: string): Promise<Read> {
  const resolved = await resolveTarget(root, target);
  return {
    result: await readPrd(resolved.taskPath),
    shown: relative(cwd, resolved.taskPath) || resolved.taskPath,
    format: resolved.format,
    previous: await committedStories(root, resolved),
  };
}

/** `--source github`: the label's issues, read as a run would read them (the token must read them). */
async function readIssues(target: string | undefined, flags: SourceFlags, root: string): Promise<Read> {
  if (target !== undefined)
    throw new UsageError(`--source github reads issues, not ${JSON.stringify(target)}`);
  const { connectGithubTasks } = await import('../../app/github-tasks.js');
  const { source } = await connectGithubTasks(flags, { knownRoot: root, onWait: waitRoute().onWait });
  return { result: await source.read(), shown: source.path, format: 'github', previous: [] };
}

/** An issue for `--json`: where (the file as the text output names it) and what, every field kept. */
const jsonIssue = (issue: ValidationIssue, cwd: string): ValidationIssue => ({
  ...issue,
  file: showPath(issue.file, cwd),
});

const countErrors = (issues: readonly ValidationIssue[]): number =>
  issues.filter((i) => i.severity === 'error').length;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const showPath = (file: string, cwd: string): string => {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') ? file : rel;
};

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
