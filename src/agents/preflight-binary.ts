/** The preflight step every adapter shares: the binary exists, is executable, and answers `--version`. */
import type { NotReady, PreflightContext } from './adapter.js';
import { findBinary, readVersion } from './binary.js';

export interface BinaryCheck {
  displayName: string;
  /** How to get the CLI, e.g. `npm i -g @openai/codex`. */
  install: string;
}

export type BinaryFound = { ok: true; path: string; version: string } | NotReady;

/** Why a binary was not found, after its name: ` (not on PATH)`, or `: permission denied (EACCES)`. */
export const onPath = (reason: string): string => (reason === 'not on PATH' ? ` (${reason})` : `: ${reason}`);

/** What a person does about a binary that is missing or will not run. */
export function binaryFix(install: string): string[] {
  return [
    'install it, or point --agent-path / RALPH_AGENT_PATH / agent.path in .ralph/config.yaml at it',
    `it installs with \`${install}\``,
  ];
}

export async function checkBinary(ctx: PreflightContext, check: BinaryCheck): Promise<BinaryFound> {
  const found = await findBinary(ctx.binaryPath, ctx.env);
  const fix = binaryFix(check.install);
  if (!found.ok) {
    return {
      ok: false,
      kind: 'not-startable',
      reason: `${check.displayName} not found or not executable: ${ctx.binaryPath}${onPath(found.reason)}`,
      fix,
    };
  }
  const version = await readVersion(found.path, ctx.env, ctx.box);
  if (!version.ok)
    return { ok: false, kind: 'not-startable', reason: `${check.displayName}: ${version.reason}`, fix };
  return { ok: true, path: found.path, version: version.version };
}
