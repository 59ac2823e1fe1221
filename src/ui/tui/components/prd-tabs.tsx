import { Box } from 'ink';
import { phaseMark } from '../model/status.js';
import { countDone, storyRows } from '../model/stories.js';
import type { TuiState } from '../model/tui-state.js';
import { Text } from './text.js';

/** `1 main 3/7 ●  2 auth 0/4 ○`: keys 1–9 switch. */
export function PrdTabs({ state }: { state: TuiState }) {
  return (
    <Box>
      <Text wrap="truncate-end">
        {state.prds.map((p, i) => {
          const rows = storyRows(p.summary.stories, p.run);
          const label = ` ${i < 9 ? `${i + 1} ` : ''}${p.summary.name} ${countDone(rows)}/${rows.length} ${phaseMark(p.run, p.summary)} `;
          return (
            <Text key={p.summary.name} inverse={i === state.selected}>
              {label}
            </Text>
          );
        })}
      </Text>
    </Box>
  );
}
