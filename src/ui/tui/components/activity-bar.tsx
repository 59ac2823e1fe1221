import { Text } from 'ink';
import { duration } from '../model/format.js';
import type { PrdView } from '../model/tui-state.js';
import { useColor } from './colors.js';

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
