import { cleanUntracked, resetHardTo, stashToRescueRef } from '../git/index.js';

/**
 * Every attempt starts clean (design principle 3): a failed attempt's
 * commits and edits are removed, after being kept under
 * `refs/ralph/rescue/<rescueName>` when one is given (`onFailure: keep`).
 * Returns the rescue ref, if one was made.
 */
export async function rollBackAttempt(
  cwd: string,
  headBefore: string,
  rescue?: { name: string; message: string },
): Promise<string | undefined> {
  const saved = rescue ? await stashToRescueRef(cwd, rescue.name, rescue.message) : undefined;
  await resetHardTo(cwd, headBefore);
  await cleanUntracked(cwd);
  return saved?.ref;
}

/** A timestamp fit for a ref name, so every rescue of the same attempt number is kept. */
export const rescueStamp = (now: Date): string => now.toISOString().replace(/[:.]/g, '-');
