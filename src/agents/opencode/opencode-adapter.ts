import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { checkBinary } from '../preflight-binary.js';
import { createOpencodeParser } from './opencode-parser.js';

/**
 * `--auto` approves every permission the user's config does not explicitly
 * deny: a headless run has nobody to ask (ralph verifies the work and rolls
 * it back).
 */
const BASE_ARGS = ['run', '--format', 'json', '--auto'];

export function buildOpencodeInvocation(opts: InvocationOptions): Invocation {
  const args = [...BASE_ARGS];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.extraArgs ?? []));
  // The prompt always goes on stdin: `opencode run` re-quotes message
  // arguments that contain spaces, and stdin has no size limit or leading-dash problem.
  return { args, env: {}, stdin: { text: opts.prompt } };
}

async function preflightOpencode(ctx: PreflightContext): Promise<PreflightResult> {
  const found = await checkBinary(ctx, { displayName: 'OpenCode', install: 'npm i -g opencode-ai' });
  return found.ok ? { ok: true, version: found.version } : found;
}

export const opencodeAdapter: AgentAdapter = {
  name: 'opencode',
  displayName: 'OpenCode',
  defaultBinary: 'opencode',
  buildInvocation: buildOpencodeInvocation,
  createParser: createOpencodeParser,
  preflight: preflightOpencode,
};
