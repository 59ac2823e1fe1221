/**
 * What the shell is left with after the TUI closes: per PRD, what passed,
 * what is left, and the command that carries on. Pure; the CLI prints it.
 */
import type { PrdSummary } from './session.js';

export interface ExitSummaryEntry {
  prd: PrdSummary;
  /** How the user names it on the command line (`ralph run <target>`). */
  target: string;
}

const list = (ids: readonly string[], max = 6): string =>
  ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;

export function exitSummary(entries: readonly ExitSummaryEntry[]): string[] {
  return entries.flatMap(({ prd, target }) => {
    const done = prd.stories.filter((s) => s.status === 'done');
    const left = prd.stories.filter((s) => s.status !== 'done');
    if (prd.goal !== undefined) return goalLines(prd, target);
    const head = `${prd.name}: ${done.length}/${prd.stories.length} stories passed`;
    if (left.length === 0) {
      const next = prd.worktree !== undefined ? `; merge it with: ralph merge ${prd.name}` : '';
      return [`${head}, complete${next}`];
    }
    const parked = left.filter((s) => s.status === 'parked').map((s) => s.id);
    const todo = left.filter((s) => s.status !== 'parked').map((s) => s.id);
    const parts = [
      todo.length > 0 ? `left: ${list(todo)}` : null,
      parked.length > 0 ? `parked after their retries: ${list(parked)}` : null,
    ].filter((p) => p !== null);
    return [`${head}; ${parts.join('; ')}`, `  resume with: ralph run ${target}`];
  });
}

/** A goal run: its steps, where it stands, and the command that carries on. */
function goalLines(prd: PrdSummary, target: string): string[] {
  const done = prd.stories.filter((s) => s.status === 'done').length;
  const head = `${prd.name}: ${done}/${prd.stories.length} steps done, ${prd.goal?.state ?? 'stopped'}`;
  if (prd.goal?.state === 'complete') {
    return [`${head}${prd.worktree !== undefined ? `; merge it with: ralph merge ${prd.name}` : ''}`];
  }
  return [head, `  resume with: ralph goal ${target}`];
}
