import type { HookEvent } from '../events/run-event.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/**
 * One plain line per hook event, for every reporter that shows a loop
 * running hooks (goal mode and the PRD loop). A failure is always shown;
 * starts and successes only with `verbose`.
 */
export function describeHookEvent(event: HookEvent, verbose: boolean): string | null {
  const what = `hook ${event.hookId}${event.parallel ? ' (parallel)' : ''}`;
  if (event.type === 'hook-committed') {
    const shas = event.commits.map((c) => c.sha.slice(0, 7)).join(', ');
    return verbose
      ? `  ${what}: what it wrote after iteration ${event.iteration} is committed (${shas})`
      : null;
  }
  if (event.type === 'hook-not-landed') {
    return `  ✗ ${what}: what it wrote after iteration ${event.iteration} is not on the branch: ${event.reason}${event.ref ? ` (kept at ${event.ref})` : ''}`;
  }
  if (event.type === 'hook-started')
    return verbose ? `  ${what} started after iteration ${event.iteration}` : null;
  if (event.status === 'completed') {
    return verbose
      ? `  ${what} done after iteration ${event.iteration} (${seconds(event.durationMs)})`
      : null;
  }
  return `  ✗ ${what} failed after iteration ${event.iteration}: ${event.error ?? `exit ${event.exitCode}`} (output: ${event.outputFile})`;
}
