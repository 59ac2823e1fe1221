import { Box } from 'ink';
import { memo } from 'react';
import { detailLines, hookTaskLines } from '../model/details.js';
import type { Size } from '../model/layout.js';
import type { StoryRow } from '../model/stories.js';
import type { HookTaskLine } from '../session.js';
import { StyledLine } from './styled-line.js';
import { Text } from './text.js';

/** The focused story: drawn again only when it, or the panel's size, changes. */
export const StoryDetails = memo(function StoryDetails({
  row,
  size,
  maxAttempts,
  hooks,
  empty = 'No stories in this PRD.',
}: {
  row: StoryRow | undefined;
  size: Size;
  maxAttempts?: number;
  /** A goal run's latest hook tasks, listed under the step. */
  hooks?: readonly HookTaskLine[];
  /** What an empty list says. */
  empty?: string;
}) {
  const inner = { columns: Math.max(10, size.columns - 4), rows: Math.max(1, size.rows - 2) };
  const lines = [
    ...(row === undefined ? [] : detailLines(row, inner.columns, maxAttempts)),
    ...(hooks === undefined ? [] : hookTaskLines(hooks, inner.columns)),
  ];
  const shown = lines.slice(0, inner.rows);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      paddingX={1}
      width={size.columns}
      height={size.rows}
      overflow="hidden"
    >
      {row === undefined ? <Text dimColor>{empty}</Text> : null}
      {shown.map((line, i) => (
        // Lines have no identity of their own; their position is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <StyledLine key={i} line={line} />
      ))}
    </Box>
  );
});
