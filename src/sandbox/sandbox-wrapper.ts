/**
 * The sandbox as a `CommandWrapper`: every command a run starts for the
 * agent (the agent, its gates, its hooks) is rewritten to start inside
 * bubblewrap or sandbox-exec, planned afresh for the checkout it runs in —
 * a parallel run's story worktrees are each their own sandbox.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command, CommandWrapper } from '../agents/spawn-command.js';
import { bwrapArgs } from '../core/bwrap-args.js';
import { SANDBOX_BASE_ENV, sandboxEnv } from '../core/sandbox-env.js';
import { planSandbox } from '../core/sandbox-plan.js';
import { seatbeltProfile } from '../core/seatbelt-profile.js';
import { resolveFacts, type SandboxSettings } from './sandbox-facts.js';
import type { SandboxTool } from './sandbox-tool.js';

export type { SandboxSettings } from './sandbox-facts.js';

/** bubblewrap gives every command a fresh, empty /tmp. */
const BWRAP_SCRATCH = '/tmp';

/** `prepare: false` describes the sandboxed command without making anything (a dry run). */
export function createSandboxWrapper(
  tool: SandboxTool,
  settings: SandboxSettings,
  options: { prepare?: boolean } = {},
): CommandWrapper {
  let macScratch: string | undefined;
  // sandbox-exec cannot give a private /tmp: the run gets a directory of its own, made once.
  const scratch = () => {
    if (tool.kind === 'bwrap') return BWRAP_SCRATCH;
    if (options.prepare === false) return path.join(os.tmpdir(), 'ralph-sandbox-XXXXXX');
    macScratch ??= mkdtempSync(path.join(os.tmpdir(), 'ralph-sandbox-'));
    return macScratch;
  };

  const wrap = (command: Command): Command => {
    const tmp = scratch();
    const { facts, cwd, env: agentEnv } = resolveFacts(settings, command, tmp, options.prepare ?? true);
    const plan = planSandbox(facts, existsSync);
    const env = sandboxEnv(command.env, [...SANDBOX_BASE_ENV, ...agentEnv], { TMPDIR: tmp });
    const profile = tool.kind === 'bwrap' ? bwrapArgs(plan, cwd) : ['-p', seatbeltProfile(plan)];
    return {
      file: tool.path,
      args: [...profile, '--', command.file, ...command.args],
      cwd: command.cwd,
      env,
    };
  };
  return Object.assign(wrap, { label: tool.kind });
}
