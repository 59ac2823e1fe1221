/** The preflight step every adapter shares: the binary exists, is executable, and answers `--version`. */
import type { PreflightContext } from './adapter.js';
import { readVersion, resolveBinary } from './binary.js';

export interface BinaryCheck {
  displayName: string;
  /** How to get the CLI, e.g. `npm i -g @openai/codex`. */
  install: string;
}

export type BinaryFound = { ok: true; path: string; version: string } | { ok: false; reason: string };

export async function checkBinary(ctx: PreflightContext, check: BinaryCheck): Promise<BinaryFound> {
  const path = await resolveBinary(ctx.binaryPath, ctx.env);
  if (path === undefined) {
    return {
      ok: false,
      reason: `${check.displayName} not found or not executable: ${ctx.binaryPath} (${check.install}, or pass --agent-path)`,
    };
  }
  const version = await readVersion(path, ctx.env);
  return version.ok ? { ok: true, path, version: version.version } : version;
}
