import { Box } from 'ink';
import type { Layout } from '../model/layout.js';
import { focusedIndex, storyRows } from '../model/stories.js';
import type { PrdView } from '../model/tui-state.js';
import { StoryDetails } from './story-details.js';
import { StoryList } from './story-list.js';

/** Story list and details (a goal run's steps and hook tasks): side by side, or stacked under 80 columns. */
export function Dashboard({ prd, layout }: { prd: PrdView; layout: Layout }) {
  const rows = storyRows(prd.summary.stories, prd.run);
  const focused = focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null);
  const row = rows[focused];
  const current = prd.run.current;
  const goal = prd.summary.goal !== undefined;
  const maxAttempts =
    current !== null && row !== undefined && current.storyId === row.story.id
      ? current.maxAttempts
      : undefined;
  return (
    <Box flexDirection={layout.narrow ? 'column' : 'row'} height={layout.bodyHeight}>
      <StoryList rows={rows} focused={focused} size={layout.list} {...(goal ? { unit: 'Steps' } : {})} />
      <StoryDetails
        row={row}
        size={layout.details}
        {...(maxAttempts !== undefined ? { maxAttempts } : {})}
        {...(goal ? { hooks: prd.run.hooks, empty: 'No steps yet: the first iteration plans them.' } : {})}
      />
    </Box>
  );
}
