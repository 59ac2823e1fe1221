import { type RunState, writeRunState } from '../state/run-state.js';
import type { RunContext } from './run-context.js';

export async function saveState(ctx: Pick<RunContext, 'files'>, state: RunState): Promise<void> {
  await writeRunState(ctx.files.state, state);
}
