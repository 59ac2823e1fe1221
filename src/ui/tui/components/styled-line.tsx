import type { LineStyle, LogLine } from '../model/log-lines.js';
import { Text } from './text.js';

type TextStyle = { color?: string; dimColor?: boolean; bold?: boolean };

const STYLES: Readonly<Record<LineStyle, TextStyle>> = {
  text: {},
  dim: { dimColor: true },
  good: { color: 'green' },
  bad: { color: 'red' },
  warn: { color: 'yellow' },
  accent: { color: 'cyan' },
  heading: { color: 'magenta', bold: true },
};

export const styleOf = (style: LineStyle): TextStyle => STYLES[style];

/** One screen line: cut at the panel's edge, never wrapped onto the next. */
export function StyledLine({ line, inverse = false }: { line: LogLine; inverse?: boolean }) {
  return (
    <Text wrap="truncate-end" inverse={inverse} {...STYLES[line.style]}>
      {line.text === '' ? ' ' : line.text}
    </Text>
  );
}
