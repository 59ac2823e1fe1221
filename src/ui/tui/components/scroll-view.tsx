import { Box } from 'ink';
import type { LogLine } from '../model/log-lines.js';
import { StyledLine } from './styled-line.js';
import { Text } from './text.js';

/** A title line, then `height` lines from `top` (null: the last `height`, following the tail). */
export function ScrollView({
  title,
  lines,
  top,
  height,
}: {
  title: string;
  lines: readonly LogLine[];
  top: number | null;
  height: number;
}) {
  const maxTop = Math.max(0, lines.length - height);
  const start = top === null ? maxTop : Math.min(top, maxTop);
  const shown = lines.slice(start, start + height);
  const where =
    lines.length <= height
      ? ''
      : top === null
        ? ` · following (${lines.length} lines)`
        : ` · lines ${start + 1}–${start + shown.length} of ${lines.length}`;
  return (
    <Box flexDirection="column" height={height + 1} overflow="hidden">
      <Text wrap="truncate-end" bold>
        {title}
        <Text dimColor>{where}</Text>
      </Text>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <StyledLine key={start + i} line={line} />
      ))}
    </Box>
  );
}
