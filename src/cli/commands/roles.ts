import { requireSharedRemote, withRole } from '../../app/role-session.js';
import { ExitCode } from '../../core/errors.js';
import { integrateRole } from '../../scale-out/integrate-role.js';
import { planRole } from '../../scale-out/plan-role.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { openCommandTarget } from '../open-source-target.js';
import { openTaskContext } from '../open-target.js';
import { print, printError, printJson } from '../output.js';
import { requireGitRepository } from '../require-git.js';
import { openRunSinks } from '../run-sinks.js';
import { loadPromptTemplate } from './run.js';
import type { RunOptions } from './run-options.js';

export interface PlanOptions
  extends Pick<RunOptions, 'branch' | 'worktree' | 'force' | 'agent' | 'source' | 'label' | 'repo'> {
  json?: boolean;
  parallel?: number;
}

/**
 * `ralph plan [prd]`: the stories ready now on the remote, capped by
 * `--parallel`. With `--json` one object (`ids` is what a job matrix
 * takes); otherwise one ready story a line. Nothing is pushed.
 */
export async function planCommand(target: string | undefined, opts: PlanOptions): Promise<number> {
  await requireGitRepository(process.cwd(), '`ralph plan`');
  const ctx = await openCommandTarget(target, opts);
  const config = await loadConfigOrThrow(ctx.root);
  await requireSharedRemote(ctx.root, 'plan');
  const log = openRunSinks(ctx.target.name, ctx.target.runDir, { screen: false });
  try {
    const plan = await withRole(
      ctx,
      config,
      opts,
      { command: 'plan', agent: 'optional', promptTemplate: '', emit: log.emit },
      (role) => planRole(role, opts.parallel ?? Number.POSITIVE_INFINITY),
    );
    if (opts.json) {
      printJson({ ...plan, ids: plan.stories.map((s) => s.id) }, 0);
    } else {
      for (const s of plan.stories) print(`${s.id}\t${s.title}`);
      const tail = [
        `${plan.remaining} not landed`,
        ...(plan.verified.length > 0 ? [`verified, waiting to integrate: ${plan.verified.join(', ')}`] : []),
        ...(plan.parked.length > 0 ? [`parked: ${plan.parked.join(', ')}`] : []),
      ];
      printError(`${plan.stories.length} ready; ${tail.join('; ')}`);
    }
    return ExitCode.Success;
  } finally {
    await log.close();
  }
}

export interface IntegrateOptions extends Pick<RunOptions, 'branch' | 'worktree' | 'force' | 'agent'> {
  json?: boolean;
  verbose?: boolean;
}

/**
 * `ralph integrate [prd]`: the merge queue over the remote's verified story
 * branches. Its events go out as a run's do; the last line
 * (`integrate-finished` with `--json`) has what landed and `next`: `dispatch`
 * (more to work or land), `pull-request` (all landed) or `stop`.
 */
export async function integrateCommand(target: string | undefined, opts: IntegrateOptions): Promise<number> {
  await requireGitRepository(process.cwd(), '`ralph integrate`');
  const ctx = await openTaskContext(target);
  const config = await loadConfigOrThrow(ctx.root);
  await requireSharedRemote(ctx.root, 'integrate');
  const log = openRunSinks(ctx.target.name, ctx.target.runDir, opts);
  try {
    const outcome = await withRole(
      ctx,
      config,
      opts,
      {
        command: 'integrate',
        agent: 'optional',
        promptTemplate: loadPromptTemplate(ctx.root),
        emit: log.emit,
      },
      integrateRole,
    );
    log.emit({ type: 'integrate-finished', ...outcome });
    if (!opts.json) {
      print(
        `landed ${outcome.landed.length > 0 ? outcome.landed.join(', ') : 'nothing'}; ${outcome.remaining} not landed; next: ${outcome.next}`,
      );
    }
    return outcome.aborted ? ExitCode.Interrupted : ExitCode.Success;
  } finally {
    await log.close();
  }
}
