import { Box } from 'ink';
import { settingRows } from '../model/settings-rows.js';
import { windowStart } from '../model/stories.js';
import type { SettingsView, TuiState } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** The config keys the TUI edits; each change is saved at once, and refused with the reasons if invalid. */
export function Settings({ state, view, height }: { state: TuiState; view: SettingsView; height: number }) {
  const color = useColor();
  const rows = settingRows(state.settings);
  const issueLines = view.issues.length;
  const listHeight = Math.max(1, height - 2 - issueLines);
  const start = windowStart(rows.length, listHeight, view.index);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>Settings (.ralph/config.yaml)</Text>
      {rows.slice(start, start + listHeight).map((row, i) => {
        const focused = start + i === view.index;
        const editing = focused && view.editing !== null;
        const value = editing ? `${view.editing?.text ?? ''}█` : row.value === '' ? '—' : row.value;
        return (
          <Text key={`${row.id}-${row.label}`} wrap="truncate-end" inverse={focused && !editing}>
            {focused ? '›' : ' '} {row.label.padEnd(26)}
            <Text color={color(editing ? 'cyan' : undefined)}>{value}</Text>
          </Text>
        );
      })}
      {view.message !== null ? <Text color={color('green')}>{view.message}</Text> : null}
      {view.issues.map((issue) => (
        <Text key={issue} color={color('red')} wrap="truncate-end">
          {issue}
        </Text>
      ))}
    </Box>
  );
}
