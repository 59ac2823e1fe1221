import { duration } from '../model/format.js';
import { isActive } from '../model/run-view.js';
import type { PrdView } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** A quiet agent is called silent after a quarter of its idle timeout, at most 30 s (30 s without one). */
export const silentAfterMs = (idleTimeoutMs: number): number =>
  idleTimeoutMs > 0 ? Math.min(30_000, Math.max(1000, idleTimeoutMs / 4)) : 30_000;

/**
 * The line above the footer: the attempt's clock, how long the agent has
 * been silent once that is worth saying, and the latest thing that happened
 * (a tool call, the agent's words, its API retries).
 */
export function ActivityBar({ prd, nowMs }: { prd: PrdView; nowMs: number }) {
  const color = useColor();
  const { run, summary } = prd;
  if (run.unusable !== null) {
    const { message, fix } = run.unusable;
    return (
      <Text color={color('red')} wrap="truncate-end">
        ✗ {message}; {fix} · r checks again
      </Text>
    );
  }
  if (run.waiting !== null && isActive(run)) {
    const left = Math.max(0, run.waiting.untilMs - nowMs);
    return (
      <Text color={color('yellow')} wrap="truncate-end">
        ⏳ waiting ({run.waiting.reason}) · next try in {duration(left)} · {run.waiting.message}
      </Text>
    );
  }
  const current = run.phase === 'running' ? run.current : null;
  const silentMs = current?.agentRunning ? nowMs - current.heardAtMs : 0;
  const silent = silentMs >= silentAfterMs(summary.idleTimeoutMs);
  const activity = run.activity === '' ? '—' : run.activity;
  return (
    <Text dimColor={!silent} wrap="truncate-end">
      ▸ {current ? `${duration(nowMs - current.startedAtMs)} · ` : ''}
      {silent ? <Text color={color('yellow')}>silent for {Math.floor(silentMs / 1000)}s · </Text> : null}
      {activity}
    </Text>
  );
}
