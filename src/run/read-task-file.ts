import { InvalidInputError } from '../core/errors.js';
import type { Prd } from '../core/types.js';
import type { RunContext } from './run-context.js';

/** Re-read every iteration: the user may edit the task file while the loop runs. */
export async function readTaskFile(ctx: Pick<RunContext, 'source'>): Promise<Prd> {
  const result = await ctx.source.read();
  if (!result.ok) throw new InvalidInputError(`${ctx.source.path} is not a valid task file`, result.issues);
  return result.prd;
}
