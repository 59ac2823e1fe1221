import { Box } from 'ink';
import { statusBadge } from '../model/status.js';
import { countDone, storyRows, windowStart } from '../model/stories.js';
import type { TuiState } from '../model/tui-state.js';
import { Text } from './text.js';

/** Every PRD with its progress; Enter opens one, s/p/x act on the highlighted one. */
export function Picker({ state, index, height }: { state: TuiState; index: number; height: number }) {
  const rows = Math.max(1, height - 1);
  const start = windowStart(state.prds.length, rows, index);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>PRDs</Text>
      {state.prds.slice(start, start + rows).map((p, at) => {
        const i = start + at;
        const stories = storyRows(p.summary.stories, p.run);
        const badge = statusBadge(p.run, p.summary, state.agentProblem);
        return (
          <Text key={p.summary.name} wrap="truncate-end" inverse={i === index}>
            {i === index ? '›' : ' '} {i < 9 ? i + 1 : ' '} {p.summary.name.padEnd(16)}{' '}
            {`${countDone(stories)}/${stories.length}`.padEnd(7)}
            {badge.label.padEnd(28)} {p.summary.project}
          </Text>
        );
      })}
    </Box>
  );
}
