import type {
  AgentAdapter,
  Invocation,
  InvocationOptions,
  PreflightContext,
  PreflightResult,
} from '../adapter.js';
import { checkBinary } from '../preflight-binary.js';
import { createAmpParser } from './amp-parser.js';

/**
 * Execute mode with the prompt on stdin (`echo … | amp -x`), so a prompt that
 * starts with `-` or is very long needs no special case. `--dangerously-allow-all`
 * runs every tool without asking: ralph verifies the work and rolls it back.
 * Amp picks its model itself (its `--mode`); a configured model is not passed.
 */
const BASE_ARGS = ['--execute', '--stream-json', '--dangerously-allow-all'];

export function buildAmpInvocation(opts: InvocationOptions): Invocation {
  return { args: [...BASE_ARGS, ...(opts.extraArgs ?? [])], env: {}, stdin: { text: opts.prompt } };
}

async function preflightAmp(ctx: PreflightContext): Promise<PreflightResult> {
  const found = await checkBinary(ctx, { displayName: 'Amp', install: 'npm i -g @ampcode/cli' });
  return found.ok ? { ok: true, version: found.version } : found;
}

export const ampAdapter: AgentAdapter = {
  name: 'amp',
  displayName: 'Amp',
  defaultBinary: 'amp',
  buildInvocation: buildAmpInvocation,
  createParser: createAmpParser,
  preflight: preflightAmp,
};
