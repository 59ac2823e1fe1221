import type { AgentSetup } from '../agents/adapter.js';
import { parseProvider, resolveAgent } from '../agents/agent-setup.js';
import { getAdapter } from '../agents/registry.js';
import { RalphError, UsageError } from '../core/errors.js';
import type { RunEvent } from '../events/run-event.js';
import { hasRemote } from '../git/remote.js';
import { loopLimits } from '../run/run-limits.js';
import { resolveWorkBranch, startWorkspace } from '../run/workspace.js';
import { requireSandbox, runSandbox } from '../sandbox/run-sandbox.js';
import { openRole, type Role } from '../scale-out/open-role.js';
import { REMOTE } from '../scale-out/shared-remote.js';
import type { Config } from '../state/config.js';
import { runFiles } from '../state/layout.js';
import { acquireLock, type LockHandle, whileHolding } from '../state/lock.js';
import type { RunOptions } from './command-options.js';
import { type StopSignals, withInterrupts } from './interrupts.js';
import { setUpRunAgent } from './run-setup.js';
import { type TaskContext, workspaceTarget } from './task-context.js';

export interface RoleSession {
  /** `plan`, `integrate` or `run --worker`, for the lock's owner line. */
  command: string;
  /** Only a worker runs the agent; the others need it only for hooks, and run where it is not installed. */
  agent: 'required' | 'optional';
  promptTemplate: string;
  emit(event: RunEvent): void;
}

/**
 * A role's job in one clone, under the PRD's run lock: the agent, the PRD
 * branch, the PRD checkout (its worktree, or with `--no-worktree` the
 * branch checked out in place), opened by `openRole`; Ctrl-C stops it as it
 * stops a run.
 */
export async function withRole<T>(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  session: RoleSession,
  work: (role: Role) => Promise<T>,
): Promise<T> {
  await requireSharedRemote(ctx.root, session.command);
  const sandbox = requireSandbox(opts, config);
  const lock = await acquireLock(runFiles(ctx.target.runDir).lock, {
    command: `ralph ${session.command} ${ctx.target.name}`,
    ...(opts.force ? { force: true } : {}),
    ...(sandbox ? { sandbox: sandbox.kind } : {}),
  });
  return whileHolding(lock, () =>
    withInterrupts(
      (how) => session.emit({ type: 'stop-requested', how }),
      async (signals) => work(await openRoleIn(ctx, config, opts, session, { lock, signals })),
    ),
  );
}

async function openRoleIn(
  ctx: TaskContext,
  config: Config,
  opts: RunOptions,
  session: RoleSession,
  held: { lock: LockHandle; signals: StopSignals },
): Promise<Role> {
  const { lock, signals } = held;
  // The worker's agent (its `--version` checked inside the box), and the gates and hooks of every role.
  const wrapFor = (agents: AgentSetup[]) =>
    runSandbox(opts, config, { root: ctx.root, runDir: ctx.target.runDir, agents });
  const { agent, wrap } =
    session.agent === 'required'
      ? await setUpRunAgent(config, opts, session.emit, { wrapFor, cwd: ctx.root })
      : await anyAgent(config, opts).then((any) => ({ agent: any, wrap: wrapFor([any]) }));
  const prdBranch = await resolveWorkBranch(ctx.root, {
    name: ctx.target.name,
    prd: ctx.prd,
    ...(opts.branch ? { branch: opts.branch } : {}),
  });
  return openRole({
    root: ctx.root,
    prdBranch,
    lock,
    name: ctx.target.name,
    runDir: ctx.target.runDir,
    config,
    agent,
    limits: loopLimits(config, opts),
    promptTemplate: session.promptTemplate,
    stopSignal: signals.stop,
    killSignal: signals.kill,
    emit: session.emit,
    ...(opts.allowDirty ? { allowDirty: true } : {}),
    ...(wrap ? { wrap } : {}),
    openWorkspace: () =>
      startWorkspace({
        ...workspaceTarget(ctx),
        branch: prdBranch,
        mode: opts.worktree === false ? 'branch' : 'worktree',
        setup: config.worktree.setup,
        emit: session.emit,
      }),
  });
}

/** The roles share their work through `origin`; without it they refuse before anything is written. */
export async function requireSharedRemote(root: string, command: string): Promise<void> {
  if (await hasRemote(root, REMOTE)) return;
  throw new UsageError(`\`ralph ${command}\` needs a remote named ${REMOTE}: the jobs' shared state`, [
    `add it with \`git remote add ${REMOTE} <url>\``,
  ]);
}

/** The configured agent if it is installed here; else its adapter alone (hooks that need it will say so). */
async function anyAgent(config: Config, opts: RunOptions): Promise<AgentSetup> {
  try {
    return await resolveAgent(config, opts);
  } catch (error) {
    if (!(error instanceof RalphError) || error.code !== 'agent-missing') throw error;
    const adapter = getAdapter(parseProvider(opts.agent ?? process.env.RALPH_AGENT ?? config.agent.provider));
    if (!adapter) throw error;
    return { adapter, binaryPath: adapter.defaultBinary, extraArgs: [], env: { ...process.env } };
  }
}
