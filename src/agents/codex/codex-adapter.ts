import { stat } from 'node:fs/promises';
import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { MAX_PROMPT_ARG_BYTES } from '../claude/claude-adapter.js';
import { checkBinary } from '../preflight-binary.js';
import { createCodexParser } from './codex-parser.js';

/**
 * Full access without prompts (ralph verifies the work and rolls it back), no
 * refusal outside a trusted git repo (a worktree may be new to Codex).
 */
const BASE_ARGS = ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check'];

export function buildCodexInvocation(opts: InvocationOptions): Invocation {
  const args = [...BASE_ARGS];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.extraArgs ?? []));
  // `-` makes `codex exec` read the whole prompt from stdin.
  if (Buffer.byteLength(opts.prompt, 'utf8') > MAX_PROMPT_ARG_BYTES) {
    return { args: [...args, '-'], env: {}, stdin: { text: opts.prompt } };
  }
  // `--` keeps a prompt that starts with `-` from being read as an option. Codex
  // appends whatever it reads on stdin to the prompt: stdin stays empty.
  return { args: [...args, '--', opts.prompt], env: {}, stdin: 'ignore' };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function preflightCodex(ctx: PreflightContext): Promise<PreflightResult> {
  const found = await checkBinary(ctx, { displayName: 'Codex', install: 'npm i -g @openai/codex' });
  if (!found.ok) return found;
  const codexHome = ctx.env.CODEX_HOME;
  if (codexHome !== undefined && codexHome !== '' && !(await isDirectory(codexHome))) {
    return {
      ok: false,
      reason: `CODEX_HOME is set to ${codexHome}, which is not a directory; Codex refuses to start. Create it, or unset CODEX_HOME to use ~/.codex.`,
    };
  }
  return { ok: true, version: found.version };
}

export const codexAdapter: AgentAdapter = {
  name: 'codex',
  displayName: 'Codex',
  defaultBinary: 'codex',
  buildInvocation: buildCodexInvocation,
  createParser: createCodexParser,
  preflight: preflightCodex,
};
