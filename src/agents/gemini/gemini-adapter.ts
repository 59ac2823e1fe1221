import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { MAX_PROMPT_ARG_BYTES } from '../claude/claude-adapter.js';
import { checkBinary } from '../preflight-binary.js';
import { findGeminiAuth } from './gemini-auth.js';
import { createGeminiParser } from './gemini-parser.js';

/**
 * `--yolo` approves every tool call (ralph verifies the work and rolls it
 * back); `--skip-trust` trusts the working directory for this run only:
 * in an untrusted folder Gemini CLI silently drops `--yolo` back to asking,
 * and a headless run then cannot use its tools (ralph's worktrees are new folders).
 */
const BASE_ARGS = ['--output-format', 'stream-json', '--yolo', '--skip-trust'];

export function buildGeminiInvocation(opts: InvocationOptions): Invocation {
  const args = [...BASE_ARGS];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.extraArgs ?? []));
  // Without a prompt argument, a piped stdin is the prompt.
  if (Buffer.byteLength(opts.prompt, 'utf8') > MAX_PROMPT_ARG_BYTES) {
    return { args, env: {}, stdin: { text: opts.prompt } };
  }
  // The `=` form keeps a prompt that starts with `-` from being read as an option.
  return { args: [...args, `--prompt=${opts.prompt}`], env: {}, stdin: 'ignore' };
}

async function preflightGemini(ctx: PreflightContext): Promise<PreflightResult> {
  const found = await checkBinary(ctx, { displayName: 'Gemini CLI', install: 'npm i -g @google/gemini-cli' });
  if (!found.ok) return found;
  const auth = await findGeminiAuth(ctx.env, process.cwd());
  if (auth === undefined) {
    return {
      ok: false,
      reason:
        'Gemini CLI has no auth method for headless runs: set GEMINI_API_KEY (or GOOGLE_GENAI_USE_VERTEXAI=true with its project settings), ' +
        'or run `gemini` once interactively and log in, which records the method in ~/.gemini/settings.json.',
    };
  }
  return { ok: true, version: found.version };
}

export const geminiAdapter: AgentAdapter = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  defaultBinary: 'gemini',
  buildInvocation: buildGeminiInvocation,
  createParser: createGeminiParser,
  preflight: preflightGemini,
};
