import { Text } from 'ink';
import type { TuiState } from '../model/tui-state.js';

const HINTS: Readonly<Record<string, string>> = {
  dashboard:
    's start · p pause · x stop · +/- iterations · t log · d diff · l PRDs · , settings · ? help · q quit',
  log: 'j/k scroll · PgUp/PgDn · g top · G follow · t back · ? help',
  diff: 'j/k scroll · PgUp/PgDn · g top · G end · d back · ? help',
  picker: '',
  help: '',
  settings: '',
  completion: '',
};

/** The last line: a question, a message, or the keys of the view. */
export function Footer({ state }: { state: TuiState }) {
  if (state.quit === 'confirm') {
    return (
      <Text color="yellow" bold wrap="truncate-end">
        A loop is running. Stop it and quit? (y/n)
      </Text>
    );
  }
  if (state.quit === 'stopping') {
    return (
      <Text color="yellow" wrap="truncate-end">
        {state.flash ?? 'Stopping… waiting for the loops to end (x: stop now)'}
      </Text>
    );
  }
  if (state.flash !== null) {
    return (
      <Text color="cyan" wrap="truncate-end">
        {state.flash}
      </Text>
    );
  }
  return (
    <Text dimColor wrap="truncate-end">
      {HINTS[state.view.kind] ?? ''}
    </Text>
  );
}
