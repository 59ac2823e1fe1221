import { Box, Text } from 'ink';

const KEYS: readonly (readonly [string, string])[] = [
  ['s', 'start or resume the selected PRD'],
  ['p', 'pause: finish this iteration, then stop'],
  ['x', 'stop now: kill the agent, roll the attempt back'],
  ['+ / -', 'five iterations more / fewer'],
  ['j k ↑ ↓', 'choose a story; scroll the log and diff'],
  ['PgUp PgDn g G', 'scroll by page, to the top, to the end (G follows)'],
  ['t', 'log: the agent stream'],
  ['d', 'diff of the story (or of the work in progress)'],
  ['1–9', 'switch PRD'],
  ['l', 'all PRDs: open, start, pause, stop'],
  ['n / e', 'write a new PRD / edit this one'],
  [',', 'settings'],
  ['m / c', 'on completion: merge the branch / clean the worktree'],
  ['Esc', 'back to the dashboard'],
  ['q', 'quit (asks first while loops run); Ctrl-C: pause all, twice: stop all'],
];

export function Help({ height }: { height: number }) {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>Keys</Text>
      {KEYS.map(([key, what]) => (
        <Text key={key} wrap="truncate-end">
          <Text color="cyan">{key.padEnd(15)}</Text>
          {what}
        </Text>
      ))}
      <Text dimColor>any key closes this help</Text>
    </Box>
  );
}
