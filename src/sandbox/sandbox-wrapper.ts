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
import { seccompFilterFor } from '../core/seccomp-filter.js';
import { type AgentStateCopy, createAgentStateCopy } from './agent-state-copy.js';
import { resolveFacts, type SandboxSettings } from './sandbox-facts.js';
import type { SandboxTool } from './sandbox-tool.js';

export type { SandboxSettings } from './sandbox-facts.js';

/** bubblewrap gives every command a fresh, empty /tmp. */
const BWRAP_SCRATCH = '/tmp';

/** bubblewrap reads the seccomp filter from this descriptor (`spawnCommand` hands `fd3` there). */
const SECCOMP_FD = 3;

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

  const seccomp = tool.kind === 'bwrap' ? seccompFilterFor(process.arch) : null;
  // The agents' state is copied once per run (bubblewrap shows the copy at the real path).
  let stateCopy: AgentStateCopy | undefined;
  const copyState = tool.kind === 'bwrap' && options.prepare !== false;
  const wrap = (command: Command): Command => {
    const tmp = scratch();
    const resolved = resolveFacts(settings, command, tmp, options.prepare ?? true);
    const { cwd, env: agentEnv } = resolved;
    if (copyState && !stateCopy) {
      stateCopy = createAgentStateCopy(resolved.logins, resolved.facts.home);
    }
    const facts = stateCopy
      ? { ...resolved.facts, agentSources: stateCopy.sourcesFor(resolved.facts.agentPaths) }
      : resolved.facts;
    const plan = planSandbox(facts, existsSync);
    const env = sandboxEnv(command.env, [...SANDBOX_BASE_ENV, ...agentEnv], { TMPDIR: tmp });
    const profile = tool.kind === 'bwrap' ? bwrapArgs(plan, cwd) : ['-p', seatbeltProfile(plan)];
    const filter = seccomp ? ['--seccomp', String(SECCOMP_FD)] : [];
    return {
      file: tool.path,
      args: [...profile, ...filter, '--', command.file, ...command.args],
      cwd: command.cwd,
      env,
      ...(seccomp ? { fd3: seccomp } : {}),
      ...(stateCopy ? { onExit: stateCopy.keepLogins } : {}),
    };
  };
  return Object.assign(wrap, { label: tool.kind });
}
