import { rescueStamp, rollBackAttempt } from '../attempt/rollback.js';
import type { RunContext } from './context.js';

/** Rolls a story's failed attempt back, keeping it under a rescue ref when the config says `onFailure: keep`. */
export async function rollBack(
  ctx: RunContext,
  storyId: string,
  attempt: number,
  headBefore: string,
): Promise<void> {
  const rescueRef = await rollBackAttempt(
    ctx.cwd,
    headBefore,
    ctx.config.onFailure === 'keep'
      ? {
          name: `${ctx.name}/${safeRefPart(storyId)}-attempt-${attempt}-${rescueStamp(ctx.now())}`,
          message: `ralph: failed attempt ${attempt} at ${storyId}`,
        }
      : undefined,
  );
  ctx.emit({ type: 'rolled-back', storyId, to: headBefore, ...(rescueRef ? { rescueRef } : {}) });
}

/** Story ids come from task files; only a conservative character set goes into a ref name. */
const safeRefPart = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');
