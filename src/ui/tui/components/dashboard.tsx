import { Box } from 'ink';
import { belowTopPanel, type Layout, lanesHeight } from '../model/layout.js';
import { focusedIndex, storyRows } from '../model/stories.js';
import type { PrdView } from '../model/tui-state.js';
import { Lanes } from './lanes.js';
import { StoryDetails } from './story-details.js';
import { StoryList } from './story-list.js';

/**
 * Story list and details (a goal run's steps and hook tasks): side by side,
 * or stacked under 80 columns. A parallel run adds its lanes (workers and
 * merge queue) on top.
 */
export function Dashboard({ prd, layout: full, nowMs }: { prd: PrdView; layout: Layout; nowMs: number }) {
  const lanes = prd.run.lanes;
  const { top, rest: layout } = lanes
    ? belowTopPanel(full, lanesHeight(lanes.workers))
    : { top: 0, rest: full };
  const rows = storyRows(prd.summary.stories, prd.run);
  const focused = focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null);
  const row = rows[focused];
  const current = prd.run.current;
  const goal = prd.summary.goal !== undefined;
  const maxAttempts =
    current !== null && row !== undefined && current.storyId === row.story.id
      ? current.maxAttempts
      : undefined;
  const stories = (
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
  if (!lanes || top === 0) return stories;
  return (
    <Box flexDirection="column" height={full.bodyHeight}>
      <Lanes lanes={lanes} nowMs={nowMs} columns={full.columns} height={top} />
      {stories}
    </Box>
  );
}
