import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { MAX_PROMPT_ARG_BYTES } from '../claude/claude-adapter.js';
import { checkBinary } from '../preflight-binary.js';
import { createCursorParser } from './cursor-parser.js';

/**
 * `--force` runs every command without asking (ralph verifies the work and
 * rolls it back); `--trust` trusts the workspace, which headless runs
 * otherwise stop at for a folder they have not seen (ralph's worktrees are new).
 */
const BASE_ARGS = ['--print', '--output-format', 'stream-json', '--force', '--trust'];

export function buildCursorInvocation(opts: InvocationOptions): Invocation {
  const args = [...BASE_ARGS];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.extraArgs ?? []));
  // With no prompt argument, print mode reads the prompt from a piped stdin.
  if (Buffer.byteLength(opts.prompt, 'utf8') > MAX_PROMPT_ARG_BYTES) {
    return { args, env: {}, stdin: { text: opts.prompt } };
  }
  // `--` keeps a prompt that starts with `-` from being read as an option.
  return { args: [...args, '--', opts.prompt], env: {}, stdin: 'ignore' };
}

async function preflightCursor(ctx: PreflightContext): Promise<PreflightResult> {
  const found = await checkBinary(ctx, {
    displayName: 'Cursor CLI',
    install: 'curl https://cursor.com/install -fsS | bash',
  });
  return found.ok ? { ok: true, version: found.version } : found;
}

export const cursorAdapter: AgentAdapter = {
  name: 'cursor',
  displayName: 'Cursor CLI',
  defaultBinary: 'cursor-agent',
  buildInvocation: buildCursorInvocation,
  createParser: createCursorParser,
  preflight: preflightCursor,
};
