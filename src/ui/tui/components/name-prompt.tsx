import { Box } from 'ink';
import type { PromptView } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** `n`: the new PRD's name, asked before the terminal goes to the agent. */
export function NamePrompt({ view, height }: { view: PromptView; height: number }) {
  const color = useColor();
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>New PRD</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        Name: <Text color={color('cyan')}>{view.text}█</Text>
      </Text>
      <Text> </Text>
      <Text dimColor wrap="truncate-end">
        {"Letters, digits, '.', '-' and '_'. It becomes .ralph/prds/<name>/prd.md."}
      </Text>
      <Text dimColor wrap="truncate-end">
        Enter hands the terminal to the agent to write it with you; the TUI comes back after.
      </Text>
    </Box>
  );
}
