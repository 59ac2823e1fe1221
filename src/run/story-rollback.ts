import { rescueStamp, rollBackAttempt } from '../attempt/rollback.js';
import { toRefComponent } from '../core/ref-name.js';
import type { RunContext } from './run-context.js';

/**
 * Rolls a story's failed attempt back, keeping it under a rescue ref when the
 * config says `onFailure: keep`. The PRD name and story id come from files,
 * so each is made a valid ref component (no `..`, no leading `.`) first.
 */
export async function rollBack(
  ctx: Pick<RunContext, 'config' | 'cwd' | 'name' | 'now' | 'emit'>,
  storyId: string,
  attempt: number,
  headBefore: string,
): Promise<void> {
  const rescueRef = await rollBackAttempt(
    ctx.cwd,
    headBefore,
    ctx.config.onFailure === 'keep'
      ? {
          name: `${toRefComponent(ctx.name)}/${toRefComponent(storyId)}-attempt-${attempt}-${rescueStamp(ctx.now())}`,
          message: `ralph: failed attempt ${attempt} at ${storyId}`,
        }
      : undefined,
  );
  ctx.emit({ type: 'rolled-back', storyId, to: headBefore, ...(rescueRef ? { rescueRef } : {}) });
}
