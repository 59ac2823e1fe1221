import type { RunEvent } from '../events/run-event.js';
import { headSha } from '../git/index.js';
import { appendEvent, readEvents } from '../state/event-log.js';
import {
  commitHookChanges,
  HOOK_REF_PREFIX,
  hookCheckoutsDir,
  hookCommitMessage,
  sweepHookCheckouts,
} from './hook-checkout.js';
import { hookTasksFile } from './hooks.js';
import { type HookTaskRecord, HookTaskRecordSchema } from './hooks-types.js';

/**
 * A run killed while its hooks ran, made whole before the next one starts
 * (after the interrupted attempt, if any, was rolled back): what a
 * sequential hook had written in the loop's checkout is committed as its
 * own and its task recorded as interrupted; the checkouts of parallel hooks
 * are kept under `refs/ralph/hooks/<run>/…` and removed.
 */
export async function recoverHooks(
  cwd: string,
  runDir: string,
  runId: string,
  emit: (event: RunEvent) => void,
): Promise<void> {
  const file = hookTasksFile(runDir);
  const latest = new Map<string, HookTaskRecord>();
  for (const raw of await readEvents(file).catch(() => [])) {
    const record = HookTaskRecordSchema.safeParse(raw);
    if (record.success)
      latest.set(`${record.data.iteration}/${record.data.hookId}/${record.data.spawnedAt}`, record.data);
  }
  const cut = [...latest.values()].filter((r) => r.status === 'running');
  for (const record of cut) {
    await appendEvent(file, { ...record, status: 'failed', error: 'interrupted: the run was stopped' });
  }
  const sequential = cut.filter((r) => !r.parallel).at(-1);
  const head = await headSha(cwd);
  if (sequential !== undefined && head !== null) {
    const commits = await commitHookChanges(
      cwd,
      head,
      hookCommitMessage(sequential.hookId, sequential.iteration),
    );
    if (commits.length > 0) {
      emit({
        type: 'hook-committed',
        iteration: sequential.iteration,
        hookId: sequential.hookId,
        parallel: false,
        commits,
      });
    }
  }
  const kept = await sweepHookCheckouts(cwd, hookCheckoutsDir(runDir), `${HOOK_REF_PREFIX}${runId}/`);
  for (const ref of kept) {
    const [iteration, ...id] = (ref.split('/').at(-1) ?? '').split('-');
    emit({
      type: 'hook-not-landed',
      iteration: Number(iteration) || 0,
      hookId: id.join('-'),
      parallel: true,
      reason: 'the run was stopped before it landed',
      ref,
    });
  }
}
