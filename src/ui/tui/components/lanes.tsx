import { Box } from 'ink';
import { visibleLine } from '../../../core/visible-text.js';
import { duration } from '../model/format.js';
import type { Lanes as LanesModel } from '../model/lanes.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/**
 * A parallel run's workers, one line each (story, attempt, elapsed, what
 * the agent is doing), and the merge queue (the story being landed, the
 * stories waiting). Lines beyond `height` are left out, the merge queue last.
 */
export function Lanes({
  lanes,
  nowMs,
  columns,
  height,
}: {
  lanes: LanesModel;
  nowMs: number;
  columns: number;
  height: number;
}) {
  const color = useColor();
  const busy = Object.keys(lanes.busy).length;
  const { merge } = lanes;
  const shownWorkers = Math.max(0, Math.min(lanes.workers, height - 4));
  const workers = Array.from({ length: shownWorkers }, (_, i) => i + 1);
  const waiting = merge.waiting.length > 0 ? ` · waiting: ${merge.waiting.join(', ')}` : '';
  return (
    <Box flexDirection="column" borderStyle="round" width={columns} height={height} overflow="hidden">
      <Text wrap="truncate-end" bold>
        Workers {busy}/{lanes.workers} busy · merge queue: {merge.landed} landed, {merge.waiting.length}{' '}
        waiting
      </Text>
      {workers.map((worker) => {
        const lane = lanes.busy[worker];
        if (lane === undefined) {
          return (
            <Text key={worker} wrap="truncate-end" dimColor>
              w{worker} ○ idle
            </Text>
          );
        }
        const attempt = lane.attempt > 0 ? ` ${lane.attempt}/${lane.maxAttempts}` : '';
        return (
          <Text key={worker} wrap="truncate-end">
            w{worker} <Text color={color('yellow')}>●</Text> {lane.storyId}
            {lane.title ? ` ${visibleLine(lane.title)}` : ''}
            <Text dimColor>
              {attempt} · {duration(nowMs - lane.startedAtMs)} · {lane.activity || '…'}
            </Text>
          </Text>
        );
      })}
      <Text wrap="truncate-end" dimColor={merge.storyId === null}>
        merge{' '}
        {merge.storyId === null ? (
          <Text>{merge.activity || 'idle'}</Text>
        ) : (
          <Text>
            <Text color={color('cyan')}>⇡</Text> {merge.storyId} ·{' '}
            {duration(nowMs - (merge.startedAtMs ?? nowMs))} · {merge.activity}
          </Text>
        )}
        {waiting}
      </Text>
    </Box>
  );
}
