import { Box } from 'ink';
import { helpLines, helpPageSize } from '../model/help-lines.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** Every key, wrapped to the width; a page at a time when it does not fit. */
export function Help({ columns, height, page }: { columns: number; height: number; page: number }) {
  const color = useColor();
  const lines = helpLines(columns);
  const size = helpPageSize(height);
  const pages = Math.max(1, Math.ceil(lines.length / size));
  const at = Math.min(page, pages - 1);
  const shown = lines.slice(at * size, at * size + size);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Keys{pages > 1 ? ` (page ${at + 1} of ${pages})` : ''}
      </Text>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <Text key={i} wrap="truncate-end">
          <Text color={color('cyan')}>{line.key}</Text>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
