import { Box } from 'ink';
import { memo } from 'react';
import { visibleLine } from '../../../core/visible-text.js';
import type { Size } from '../model/layout.js';
import { STATUS_ICON, type StoryRow, windowStart } from '../model/stories.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

const COLOR = {
  done: 'green',
  'in-progress': 'yellow',
  todo: undefined,
  parked: 'red',
  waiting: 'magenta',
} as const;

/** ✓ ● ○ ✗ ? and the titles, one line each, scrolled to keep the focused story in view. */
export const StoryList = memo(function StoryList({
  rows,
  focused,
  size,
  unit = 'Stories',
}: {
  rows: readonly StoryRow[];
  focused: number;
  size: Size;
  /** What the rows are: a PRD's stories, or a goal run's steps. */
  unit?: 'Stories' | 'Steps';
}) {
  const color = useColor();
  // Borders take two lines and two columns; the title takes one line.
  const height = Math.max(1, size.rows - 3);
  const start = windowStart(rows.length, height, focused);
  const shown = rows.slice(start, start + height);
  const done = rows.filter((r) => r.state === 'done').length;
  const range = rows.length > height ? ` · ${start + 1}–${start + shown.length} of ${rows.length}` : '';
  return (
    <Box flexDirection="column" borderStyle="round" width={size.columns} height={size.rows} overflow="hidden">
      <Text wrap="truncate-end" bold>
        {unit} {done}/{rows.length} done{range}
      </Text>
      {shown.map((row, i) => {
        const isFocused = start + i === focused;
        return (
          <Text
            key={row.story.id}
            wrap="truncate-end"
            inverse={isFocused}
            dimColor={row.state === 'todo' && !isFocused}
          >
            <Text color={color(COLOR[row.state])}>{STATUS_ICON[row.state]}</Text> {row.story.id}{' '}
            {visibleLine(row.story.title)}
          </Text>
        );
      })}
    </Box>
  );
});
