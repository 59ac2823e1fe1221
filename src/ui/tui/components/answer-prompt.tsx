import { Box } from 'ink';
import { visibleText } from '../../../core/visible-text.js';
import { wrap } from '../model/format.js';
import type { AnswerView } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** `a`: the waiting story's question, and the answer being typed (recorded as `ralph answer` does). */
export function AnswerPrompt({
  view,
  columns,
  height,
}: {
  view: AnswerView;
  columns: number;
  height: number;
}) {
  const color = useColor();
  const width = Math.max(10, columns - 2);
  // Shown as symbols before wrapping, so the lines are measured as they will be drawn.
  const question = wrap(visibleText(view.question), width).slice(0, Math.max(1, height - 6));
  // The end of a long answer stays in view, where the typing is.
  const shown = [...view.text].slice(-Math.max(1, width - 10)).join('');
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {view.storyId} asks
      </Text>
      {question.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines have no identity but their place
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text> </Text>
      <Text wrap="truncate-end">
        Answer: <Text color={color('cyan')}>{shown}█</Text>
      </Text>
      <Text> </Text>
      <Text dimColor wrap="truncate-end">
        Enter records it; the running loop picks it up within seconds, or the next run does.
      </Text>
    </Box>
  );
}
