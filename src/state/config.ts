import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { InvalidInputError } from '../core/errors.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { closestKey, knownKeys } from './closest-key.js';
import { type Config, ConfigSchema, defaultConfig } from './config-schema.js';
import { readTextOrNull } from './fs-util.js';
import { configPath, workflowFile, workflowsDir } from './layout.js';
import { issueAt, type ParsedYaml, parseYaml } from './yaml-document.js';

export type { Config } from './config-schema.js';

export interface ConfigResult {
  /** The validated config; the defaults when the file is missing or has errors. */
  config: Config;
  /** Problems found, with file:line:column. Check `hasErrors(issues)` before trusting `config`. */
  issues: ValidationIssue[];
  file: string;
  exists: boolean;
}

/** Reads `.ralph/config.yaml`; a missing file means all defaults. */
export async function loadConfig(root: string): Promise<ConfigResult> {
  const file = configPath(root);
  const text = await readTextOrNull(file);
  if (text === null) return { config: defaultConfig(), issues: [], file, exists: false };
  const workflows = workflowsDir(root);
  const parsed = parseConfig(text, file, {
    workflowExists: (name) => existsSync(workflowFile(workflows, name)),
  });
  return { ...parsed, file, exists: true };
}

/** `loadConfig` for commands that cannot go on with a broken config. */
export async function loadConfigOrThrow(root: string): Promise<Config> {
  const result = await loadConfig(root);
  if (hasErrors(result.issues)) throw new InvalidInputError(`Invalid config ${result.file}.`, result.issues);
  return result.config;
}

export interface ConfigChecks {
  /** Whether `.ralph/workflows/<name>.md` exists, for hooks with `workflow: <name>`. */
  workflowExists?: (name: string) => boolean;
}

/** Validates config text; `file` is only used in the issues. */
export function parseConfig(
  text: string,
  file: string,
  checks: ConfigChecks = {},
): { config: Config; issues: ValidationIssue[] } {
  const yaml = parseYaml(text, file);
  if (hasErrors(yaml.issues)) return { config: defaultConfig(), issues: yaml.issues };
  const raw = yaml.value ?? {};
  const parsed = ConfigSchema.safeParse(raw);
  if (parsed.success) {
    const exists = checks.workflowExists;
    const missing = parsed.data.hooks.flatMap((hook, index) =>
      hook.workflow !== undefined && exists !== undefined && !exists(hook.workflow)
        ? [
            issueAt(
              file,
              yaml,
              ['hooks', index, 'workflow'],
              `no prompt file .ralph/workflows/${hook.workflow}.md for this workflow`,
              false,
            ),
          ]
        : [],
    );
    if (missing.length > 0) return { config: defaultConfig(), issues: [...yaml.issues, ...missing] };
    return { config: parsed.data, issues: yaml.issues };
  }
  const issues = parsed.error.issues.flatMap((issue) => toIssues(issue, yaml, file));
  return { config: defaultConfig(), issues: [...yaml.issues, ...issues] };
}

function toIssues(issue: z.core.$ZodIssue, yaml: ParsedYaml, file: string): ValidationIssue[] {
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(ConfigSchema, issue.path);
    return issue.keys.map((key) => {
      const path = [...issue.path, key];
      const guess = closestKey(key, known);
      const hint =
        guess !== undefined
          ? ` (did you mean "${guess}"?)`
          : known.length > 0
            ? ` (known keys: ${known.join(', ')})`
            : '';
      return issueAt(file, yaml, path, `unknown key "${key}"${hint}`, true);
    });
  }
  if (issue.path.length === 0 && issue.code === 'invalid_type') {
    return [
      issueAt(file, yaml, [], 'the config must be a mapping of keys (agent, checks, limits, ...)', false),
    ];
  }
  return [issueAt(file, yaml, issue.path, issue.message, false)];
}
