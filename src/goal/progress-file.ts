import { stringify } from 'yaml';
import { InvalidInputError } from '../core/errors.js';
import { formatIssue, formatPath, hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { writeFileAtomic } from '../state/atomic.js';
import { readTextOrNull } from '../state/fs-util.js';
import { parseYaml } from '../state/yaml-document.js';
import { kebabPath, mapKeys, toCamel, toKebab } from './kebab-keys.js';
import { type GoalProgress, GoalProgressSchema } from './progress-schema.js';

export { type GoalRunFiles, goalRunFiles } from './goal-run-files.js';

const HEADER =
  '# The state of a ralph goal run (Ralph Mode). ralph rewrites this file after every\n' +
  '# iteration and reads it back to resume; edit it only while no run is going.\n';

/**
 * The saved progress, or null when there is none. A file that exists but is
 * not a valid progress file is an error with file:line:column, never a
 * silent restart: it holds the steps and the in-flight iteration.
 */
export async function readGoalProgress(file: string): Promise<GoalProgress | null> {
  const text = await readTextOrNull(file);
  return text === null ? null : parseGoalProgress(text, file);
}

export function parseGoalProgress(text: string, file: string): GoalProgress {
  const yaml = parseYaml(text, file);
  if (hasErrors(yaml.issues)) throw corrupt(file, yaml.issues);
  const parsed = GoalProgressSchema.safeParse(mapKeys(yaml.value, toCamel));
  if (parsed.success) return parsed.data;
  throw corrupt(
    file,
    parsed.error.issues.map((issue) => {
      const where = kebabPath(issue.path);
      const pos = yaml.locate(where);
      const formatted = formatPath(where);
      return {
        file,
        ...(pos ? { line: pos.line, column: pos.column } : {}),
        ...(formatted !== '' ? { path: formatted } : {}),
        message: issue.message,
        severity: 'error' as const,
      };
    }),
  );
}

export function formatGoalProgress(progress: GoalProgress): string {
  const valid = GoalProgressSchema.parse(progress);
  return HEADER + stringify(mapKeys(valid, toKebab), { lineWidth: 0 });
}

export async function writeGoalProgress(file: string, progress: GoalProgress): Promise<void> {
  await writeFileAtomic(file, formatGoalProgress(progress));
}

function corrupt(file: string, issues: ValidationIssue[]): InvalidInputError {
  const first = issues.find((i) => i.severity === 'error') ?? issues[0];
  return new InvalidInputError(
    `Goal progress is not readable: ${first ? formatIssue(first) : file}. Nothing was changed; fix the file, or move its folder away to start the goal from scratch.`,
    issues,
  );
}
