import path from 'node:path';
import type { z } from 'zod';
import { InvalidInputError, UsageError } from '../core/errors.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { closestKey, knownKeys } from '../state/closest-key.js';
import type { Hook } from '../state/config-schema.js';
import { readTextOrNull } from '../state/fs-util.js';
import { sanitizeName } from '../state/layout.js';
import { issueAt, type ParsedYaml, parseYaml } from '../state/yaml-document.js';
import type { GoalSpec } from './goal-spec.js';
import { HookListSchema, HookSwitchesSchema, SprintSchema } from './sprint-schema.js';

export interface SprintFileOptions {
  /** The hooks of `.ralph/config.yaml`, which the file may switch on or off and add to. */
  configHooks: readonly Hook[];
  /** `ralph run <file>` insists on `workflow: ralph`; `ralph goal --file` assumes it. */
  requireWorkflow?: boolean;
  /** Whether `.ralph/workflows/<name>.md` exists, for hooks the file defines with `workflow: <name>`. */
  workflowExists?: (name: string) => boolean;
}

/** Reads and validates a SPRINT.yaml; any problem is an exit-2 error with file:line:column. */
export async function readSprintFile(file: string, options: SprintFileOptions): Promise<GoalSpec> {
  const text = await readTextOrNull(file);
  if (text === null) throw new UsageError(`No goal file at ${file}.`);
  return parseSprint(text, file, options);
}

export function parseSprint(text: string, file: string, options: SprintFileOptions): GoalSpec {
  const yaml = parseYaml(text, file);
  const fail = (issues: ValidationIssue[]) =>
    new InvalidInputError(`${file} is not a valid goal file.`, issues);
  if (hasErrors(yaml.issues)) throw fail(yaml.issues);
  if (yaml.value === null || typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    throw fail([issueAt(file, yaml, [], 'a goal file is a mapping with at least `goal:`', false)]);
  }
  const parsed = SprintSchema.safeParse(yaml.value);
  if (!parsed.success) throw fail(parsed.error.issues.flatMap((i) => toIssues(i, yaml, file, [])));
  const sprint = parsed.data;
  if (options.requireWorkflow && sprint.workflow === undefined) {
    throw fail([issueAt(file, yaml, [], 'not a goal file: it needs `workflow: ralph`', false)]);
  }
  const hooks = mergeHooks(sprint['per-iteration-hooks'], options, yaml, file);
  if (hooks.issues.length > 0) throw fail(hooks.issues);
  const maxIterations = sprint.ralph['max-iterations'];
  return {
    name: sanitizeName(sprint.name ?? sprint['sprint-id'] ?? defaultName(file)),
    goal: sprint.goal,
    successCriteria: sprint['success-criteria'],
    settings: {
      idleThreshold: sprint.ralph['idle-threshold'],
      minIterations: sprint.ralph['min-iterations'],
    },
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    goalFile: path.resolve(file),
    hooks: hooks.hooks,
  };
}

/** `sprints/auth/SPRINT.yaml` → `auth`; `auth-goal.yaml` → `auth-goal`. */
function defaultName(file: string): string {
  const base = path.basename(file).replace(/\.ya?ml$/i, '');
  return base.toLowerCase() === 'sprint' ? path.basename(path.dirname(path.resolve(file))) : base;
}

/**
 * A list defines hooks: one with a configured id replaces it, a new id is
 * added. A mapping switches configured hooks on or off by id.
 */
function mergeHooks(
  raw: unknown,
  options: SprintFileOptions,
  yaml: ParsedYaml,
  file: string,
): { hooks: Hook[]; issues: ValidationIssue[] } {
  const { configHooks, workflowExists } = options;
  const base = 'per-iteration-hooks';
  if (raw === undefined || raw === null) return { hooks: [...configHooks], issues: [] };
  if (Array.isArray(raw)) {
    const list = HookListSchema.safeParse(raw);
    if (!list.success) {
      return {
        hooks: [],
        issues: list.error.issues.flatMap((i) => toIssues(i, yaml, file, [base], HookListSchema)),
      };
    }
    const missing = list.data.flatMap((h, index) =>
      h.workflow !== undefined && workflowExists !== undefined && !workflowExists(h.workflow)
        ? [
            issueAt(
              file,
              yaml,
              [base, index, 'workflow'],
              `no prompt file .ralph/workflows/${h.workflow}.md`,
              false,
            ),
          ]
        : [],
    );
    if (missing.length > 0) return { hooks: [], issues: missing };
    const defined = new Map(list.data.map((h) => [h.id, h]));
    const kept = configHooks.map((h) => defined.get(h.id) ?? h);
    const added = list.data.filter((h) => !configHooks.some((c) => c.id === h.id));
    return { hooks: [...kept, ...added], issues: [] };
  }
  const switches = HookSwitchesSchema.safeParse(raw);
  if (!switches.success) {
    const issues = switches.error.issues.flatMap((i) => toIssues(i, yaml, file, [base], HookSwitchesSchema));
    return { hooks: [], issues };
  }
  const known = configHooks.map((h) => h.id);
  const issues = Object.keys(switches.data)
    .filter((id) => !known.includes(id))
    .map((id) =>
      issueAt(
        file,
        yaml,
        [base, id],
        `no hook "${id}" in .ralph/config.yaml (${known.length > 0 ? `configured: ${known.join(', ')}` : 'none is configured'}); define it here as a list item with run:, prompt: or workflow:`,
        true,
      ),
    );
  const hooks = configHooks.map((h) => {
    const enabled = switches.data[h.id]?.enabled;
    return enabled === undefined ? h : { ...h, enabled };
  });
  return { hooks, issues };
}

function toIssues(
  issue: z.core.$ZodIssue,
  yaml: ParsedYaml,
  file: string,
  prefix: PropertyKey[],
  schema: z.core.$ZodType = SprintSchema,
): ValidationIssue[] {
  const where = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(schema, issue.path);
    return issue.keys.map((key) => {
      const guess = closestKey(key, known);
      const hint = guess !== undefined ? ` (did you mean "${guess}"?)` : '';
      return issueAt(file, yaml, [...where, key], `unknown key "${key}"${hint}`, true);
    });
  }
  return [issueAt(file, yaml, where, issue.message, false)];
}
