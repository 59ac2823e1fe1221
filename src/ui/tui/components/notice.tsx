import { Box } from 'ink';
import { wrap } from '../model/format.js';
import type { NoticeView } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** A message with its reasons, wrapped to the width: what a hand-off did, or why it could not. */
export function Notice({ view, columns, height }: { view: NoticeView; columns: number; height: number }) {
  const color = useColor();
  const lines = wrap(view.text.trim(), Math.max(10, columns - 2)).slice(0, Math.max(1, height - 2));
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold color={color(view.tone === 'good' ? 'green' : 'red')} wrap="truncate-end">
        {view.title}
      </Text>
      <Text> </Text>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <Text key={i} wrap="truncate-end">
          {line === '' ? ' ' : line}
        </Text>
      ))}
    </Box>
  );
}
