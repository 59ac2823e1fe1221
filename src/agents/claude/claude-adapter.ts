import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { readVersion, resolveBinary } from '../binary.js';
import { createClaudeParser } from './claude-parser.js';

/**
 * Linux caps one argv string at 128 KiB (MAX_ARG_STRLEN); a prompt near that
 * goes on stdin instead, which `claude -p` reads when no prompt argument is given.
 */
export const MAX_PROMPT_ARG_BYTES = 100_000;

const BASE_ARGS = ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];

export const ROOT_WITHOUT_SANDBOX_REASON =
  'Claude Code refuses --dangerously-skip-permissions as root; set IS_SANDBOX=1 in the environment ' +
  '(only inside a container or VM you are willing to let the agent change), or run as a normal user.';

export function buildClaudeInvocation(opts: InvocationOptions): Invocation {
  const args = [...BASE_ARGS];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.extraArgs ?? []));
  if (Buffer.byteLength(opts.prompt, 'utf8') > MAX_PROMPT_ARG_BYTES) {
    return { args, env: {}, stdin: { text: opts.prompt } };
  }
  // `--` keeps a prompt that starts with `-` from being read as an option.
  args.push('--', opts.prompt);
  return { args, env: {}, stdin: 'ignore' };
}

/** Claude Code's own rule: as root it allows skipping permissions only in a declared sandbox. */
export function rootAllowed(env: NodeJS.ProcessEnv): boolean {
  const bubblewrap = env.CLAUDE_CODE_BUBBLEWRAP;
  return env.IS_SANDBOX === '1' || (bubblewrap !== undefined && bubblewrap !== '' && bubblewrap !== '0');
}

async function preflightClaude(ctx: PreflightContext): Promise<PreflightResult> {
  const path = await resolveBinary(ctx.binaryPath, ctx.env);
  if (path === undefined) {
    return {
      ok: false,
      reason: `Claude Code not found or not executable: ${ctx.binaryPath} (install @anthropic-ai/claude-code or pass --agent-path)`,
    };
  }
  if (ctx.isRoot && !rootAllowed(ctx.env)) return { ok: false, reason: ROOT_WITHOUT_SANDBOX_REASON };
  const version = await readVersion(path, ctx.env);
  return version.ok ? { ok: true, version: version.version } : version;
}

export const claudeAdapter: AgentAdapter = {
  name: 'claude',
  displayName: 'Claude Code',
  defaultBinary: 'claude',
  buildInvocation: buildClaudeInvocation,
  createParser: createClaudeParser,
  preflight: preflightClaude,
};
