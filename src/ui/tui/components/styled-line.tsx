import type { LogLine } from '../model/log-lines.js';
import { useStyleOf } from './colors.js';
import { Text } from './text.js';

/** One screen line: cut at the panel's edge, never wrapped onto the next. */
export function StyledLine({ line, inverse = false }: { line: LogLine; inverse?: boolean }) {
  const styleOf = useStyleOf();
  return (
    <Text wrap="truncate-end" inverse={inverse} {...styleOf(line.style)}>
      {line.text === '' ? ' ' : line.text}
    </Text>
  );
}
