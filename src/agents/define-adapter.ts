/**
 * An agent adapter declared as data: how the CLI is installed, which flags
 * make it run unattended and stream JSON, how the model and the prompt are
 * passed, and its stream parser. The invocation and the preflight are built
 * from that here, the same way for every CLI.
 */
import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  NotReady,
  PreflightContext,
  PreflightResult,
  ReadyCheck,
  StreamParser,
} from './adapter.js';
import type { RetryEvent } from './agent-event.js';
import type { EndHints } from './classify-end.js';
import { checkBinary } from './preflight-binary.js';

/**
 * Linux caps one argv string at 128 KiB (MAX_ARG_STRLEN); a prompt near that
 * goes on stdin instead, where the CLI reads it when no prompt argument is given.
 */
export const MAX_PROMPT_ARG_BYTES = 100_000;

/** How the prompt reaches the CLI. Never through a shell. */
export type PromptPassing =
  /** Always on stdin: no size limit, no leading-dash problem. */
  | { kind: 'stdin' }
  /**
   * As arguments (`args`: e.g. `['--', prompt]`, so a prompt starting with
   * `-` is not an option), or on stdin with `stdinArgs` when it is too long for one argv string.
   */
  | { kind: 'argument'; args: (prompt: string) => string[]; stdinArgs?: readonly string[] };

export interface AdapterSpec {
  /** The provider name used in config and on the command line, e.g. `claude`. */
  name: string;
  displayName: string;
  /** The binary looked up on PATH when no agent path is configured. */
  defaultBinary: string;
  /** How to get the CLI, said when it is missing. */
  install: string;
  /** The flags of a headless, unattended run with a JSON stream. */
  baseArgs: readonly string[];
  /** The flag that picks the model; null when the CLI picks it itself (a configured model is not passed). */
  modelFlag: string | null;
  prompt: PromptPassing;
  createParser(): StreamParser;
  /** What the CLI needs beyond answering `--version` (a login, root rules, its home folder); null when ready. */
  ready?(ctx: PreflightContext): Promise<NotReady | null> | NotReady | null;
  /** How a person logs the CLI in (one clause: "run `codex login`, or set OPENAI_API_KEY"). */
  login: string;
  /** What the CLI's exit codes mean beyond its words. */
  endHints?: EndHints;
  /** The API the CLI talks to, from its environment and arguments; undefined when unknown. */
  apiBase?(env: NodeJS.ProcessEnv, extraArgs: readonly string[]): string | undefined;
  /** The arguments that reopen a session interactively, where the CLI can. */
  resumeArgs?(sessionId: string): string[];
  /** An API retry the CLI reports only on stderr, as a retry event. */
  stderrRetry?(line: string): RetryEvent | undefined;
}

export function buildInvocation(spec: AdapterSpec, opts: InvocationOptions): Invocation {
  const args = [...spec.baseArgs];
  if (opts.model && spec.modelFlag !== null) args.push(spec.modelFlag, opts.model);
  args.push(...(opts.extraArgs ?? []));
  const { prompt } = spec;
  if (prompt.kind === 'stdin' || Buffer.byteLength(opts.prompt, 'utf8') > MAX_PROMPT_ARG_BYTES) {
    const stdinArgs = prompt.kind === 'argument' ? (prompt.stdinArgs ?? []) : [];
    return { args: [...args, ...stdinArgs], env: {}, stdin: { text: opts.prompt } };
  }
  return { args: [...args, ...prompt.args(opts.prompt)], env: {}, stdin: 'ignore' };
}

async function checkReady(spec: AdapterSpec, ctx: PreflightContext): Promise<ReadyCheck> {
  const found = await checkBinary(ctx, { displayName: spec.displayName, install: spec.install });
  if (!found.ok) return found;
  const refused = (await spec.ready?.(ctx)) ?? null;
  if (refused !== null) return refused;
  return { ok: true, version: found.version };
}

/** `checkReady` in one line: what failed, then how to fix it. */
async function preflight(spec: AdapterSpec, ctx: PreflightContext): Promise<PreflightResult> {
  const ready = await checkReady(spec, ctx);
  return ready.ok ? ready : { ok: false, reason: [ready.reason, ...ready.fix].join('; ') };
}

export function defineAdapter(spec: AdapterSpec): AgentAdapter {
  return {
    name: spec.name,
    displayName: spec.displayName,
    defaultBinary: spec.defaultBinary,
    buildInvocation: (opts) => buildInvocation(spec, opts),
    createParser: spec.createParser,
    preflight: (ctx) => preflight(spec, ctx),
    checkReady: (ctx) => checkReady(spec, ctx),
    install: spec.install,
    login: spec.login,
    endHints: spec.endHints ?? {},
    apiBase: (env, extraArgs) => spec.apiBase?.(env, extraArgs),
    resumeCommand: (sessionId) => {
      const args = spec.resumeArgs?.(sessionId);
      return args === undefined ? undefined : [spec.defaultBinary, ...args];
    },
    stderrRetry: (line) => spec.stderrRetry?.(line),
  };
}
