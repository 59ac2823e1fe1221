import { cleanUntracked, resetHardTo, stashToRescueRef } from '../git/index.js';
import type { RunContext } from './context.js';

/**
 * Every attempt starts clean (design principle 3): a failed attempt's commits
 * and edits are removed, after being kept under a rescue ref when the config
 * says `onFailure: keep`.
 */
export async function rollBack(
  ctx: RunContext,
  storyId: string,
  attempt: number,
  headBefore: string,
): Promise<void> {
  let rescueRef: string | undefined;
  if (ctx.config.onFailure === 'keep') {
    const stamp = ctx.now().toISOString().replace(/[:.]/g, '-');
    const rescue = await stashToRescueRef(
      ctx.cwd,
      `${ctx.name}/${safeRefPart(storyId)}-attempt-${attempt}-${stamp}`,
      `ralph: failed attempt ${attempt} at ${storyId}`,
    );
    rescueRef = rescue.ref;
  }
  await resetHardTo(ctx.cwd, headBefore);
  await cleanUntracked(ctx.cwd);
  ctx.emit({ type: 'rolled-back', storyId, to: headBefore, ...(rescueRef ? { rescueRef } : {}) });
}

/** Story ids come from task files; only a conservative character set goes into a ref name. */
const safeRefPart = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');
