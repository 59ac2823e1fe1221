import { z } from 'zod';
import { checkWebhookUrl, NOTIFY_EVENTS } from '../core/notification.js';
import { WORKFLOW_NAME } from './layout.js';
import { PROVIDERS } from './providers.js';

export { PROVIDERS };
export const ProviderSchema = z.enum(PROVIDERS);
export type Provider = z.infer<typeof ProviderSchema>;

// YAML reads `DEBUG: 1` as a number; environment values are strings either way.
const EnvValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const Seconds = z.number().int().positive();

const AgentSchema = z.strictObject({
  provider: ProviderSchema.default('claude'),
  path: z.string().min(1).nullable().default(null),
  model: z.string().min(1).nullable().default(null),
  /** Providers to switch to when the current one is rate-limited or unavailable, in order. */
  fallback: z.array(ProviderSchema).default(() => []),
  args: z.partialRecord(ProviderSchema, z.array(z.string())).default(() => ({})),
  env: z.partialRecord(ProviderSchema, z.record(z.string().min(1), EnvValue)).default(() => ({})),
});

const LimitsSchema = z.strictObject({
  /** null: remaining stories + 5. */
  maxIterations: z.number().int().positive().nullable().default(null),
  timeout: Seconds.default(1800),
  idleTimeout: Seconds.default(300),
  maxRetries: z.number().int().positive().default(3),
  maxCost: z.number().positive().nullable().default(null),
  /** Park a story once its attempts together have cost this many US dollars; null or absent: no limit. */
  maxCostPerStory: z.number().positive().nullable().optional(),
  /** How long an API outage (unreachable, overloaded, server errors) is waited out before the run stops with exit 3; default 7200. */
  outageWait: Seconds.optional(),
});

export const HookSchema = z
  .strictObject({
    id: z.string().min(1),
    run: z.string().min(1).optional(),
    prompt: z.string().min(1).optional(),
    /** The name of a prompt file, `.ralph/workflows/<name>.md` (seed 004's local workflow). */
    workflow: z
      .string()
      .min(1)
      .refine((name) => !name.includes(':'), {
        message:
          'plugin workflows (`namespace:command`) are not run by ralph; use `prompt: "/namespace:command …"` to have the agent run it, or write the prompt to .ralph/workflows/<name>.md',
      })
      .refine((name) => WORKFLOW_NAME.test(name), {
        message:
          'a workflow is named by a file name in .ralph/workflows/ (letters, digits, ., _, -), not a path',
      })
      .optional(),
    parallel: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .refine((hook) => [hook.run, hook.prompt, hook.workflow].filter((x) => x !== undefined).length === 1, {
    message:
      'a hook needs exactly one of `run` (a shell command), `prompt` (an agent prompt) or `workflow` (a prompt file in .ralph/workflows/)',
  });
export type Hook = z.infer<typeof HookSchema>;

const HooksSchema = z.array(HookSchema).superRefine((hooks, ctx) => {
  const seen = new Set<string>();
  hooks.forEach((hook, index) => {
    if (seen.has(hook.id)) {
      ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate hook id "${hook.id}"` });
    }
    seen.add(hook.id);
  });
});

/** A variable name (`GH_TOKEN`) or a prefix ending in `*` (`AWS_*`). */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, {
  message: 'a variable name, or a prefix ending in * (e.g. AWS_*)',
});

/** `--sandbox`: the agent, its gates and its hooks under bubblewrap (Linux) or sandbox-exec (macOS). */
export const SandboxSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** `host`: the user's network; `none`: none at all (an agent on a local model in the same sandbox needs none). */
  network: z.enum(['host', 'none']).default('host'),
  /** Also readable inside (`~/` is the home directory; relative paths are from the project root). */
  allowRead: z.array(z.string().min(1)).default(() => []),
  /** Also writable inside, e.g. a package cache. */
  allowWrite: z.array(z.string().min(1)).default(() => []),
  /** Variables passed in besides the base list and the agent's own (names, or prefixes ending in `*`). */
  env: z.array(EnvName).default(() => []),
});

export const ConfigSchema = z.strictObject({
  agent: AgentSchema.prefault({}),
  /** Gate commands run after the agent signals DONE; all must pass. */
  checks: z.array(z.string().min(1)).default(() => []),
  limits: LimitsSchema.prefault({}),
  /** keep: stash the failed attempt to a rescue ref before rolling back. */
  onFailure: z.enum(['rollback', 'keep']).default('rollback'),
  worktree: z
    .strictObject({ enabled: z.boolean().default(true), setup: z.string().min(1).nullable().default(null) })
    .prefault({}),
  onComplete: z
    .strictObject({ push: z.boolean().default(false), createPR: z.boolean().default(false) })
    .prefault({}),
  notifications: z
    .strictObject({ bell: z.boolean().default(true), desktop: z.boolean().default(false) })
    .prefault({}),
  /** Webhooks told of questions, parked stories, waits, limits and the end of a run (`--notify` adds more). */
  notify: z
    .strictObject({
      webhooks: z
        .array(
          z.string().superRefine((url, ctx) => {
            const checked = checkWebhookUrl(url);
            if (!checked.ok)
              ctx.addIssue({ code: 'custom', message: `not a webhook URL: ${checked.reason}` });
          }),
        )
        .default(() => []),
      /** Which notifications to send; null: all of them. */
      events: z.array(z.enum(NOTIFY_EVENTS)).nullable().default(null),
    })
    // Absent unless written: a project without webhooks has nothing to say about them.
    .optional(),
  hooks: HooksSchema.default(() => []),
  /** Guidance switched into the story prompt. */
  prompt: z
    .strictObject({
      /** Reusable patterns go into AGENTS.md in the directories the story touched (snarktank's ralph). */
      agentsMd: z.boolean().default(true),
      /** Red, green, refactor: a failing test first for each criterion (Melliza). */
      testFirst: z.boolean().default(false),
      /** Visual or UI changes checked by screenshot or browser, or a note of why not (Melliza). */
      visualCheck: z.boolean().default(false),
    })
    .prefault({}),
  /** Optional: absent, every sandbox setting has its default (`sandboxSettings`). */
  sandbox: SandboxSchema.optional(),
});
export type Config = z.output<typeof ConfigSchema>;
export type SandboxConfig = z.output<typeof SandboxSchema>;

/** The config's `sandbox:` section, its defaults filled in when the section is absent. */
export const sandboxSettings = (config: Pick<Config, 'sandbox'>): SandboxConfig =>
  config.sandbox ?? SandboxSchema.parse({});

export const defaultConfig = (): Config => ConfigSchema.parse({});
