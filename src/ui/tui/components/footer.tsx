import { footerHints } from '../model/hints.js';
import type { TuiState } from '../model/tui-state.js';
import { useColor } from './colors.js';
import { Text } from './text.js';

/** The last line: a question, a message, or the keys of the view (always with `? help` and `q quit`). */
export function Footer({
  state,
  columns,
  helpPages,
}: {
  state: TuiState;
  columns: number;
  helpPages: number;
}) {
  const color = useColor();
  if (state.quit === 'confirm') {
    return (
      <Text color={color('yellow')} bold wrap="truncate-end">
        A loop is running. Stop it and quit? (y/n)
      </Text>
    );
  }
  if (state.quit === 'stopping') {
    return (
      <Text color={color('yellow')} wrap="truncate-end">
        {state.flash ?? 'Stopping… waiting for the loops to end (x: stop now)'}
      </Text>
    );
  }
  const question = state.question;
  if (question !== null) {
    const prd = state.prds.find((p) => p.summary.name === question.name)?.summary;
    const branch = prd?.branch ? ` (branch ${prd.branch} stays)` : '';
    return (
      <Text color={color('yellow')} bold wrap="truncate-end">
        Remove the worktree of {question.name}
        {branch}? (y/n)
      </Text>
    );
  }
  if (state.flash !== null) {
    return (
      <Text color={color('cyan')} wrap="truncate-end">
        {state.flash}
      </Text>
    );
  }
  return (
    <Text dimColor wrap="truncate-end">
      {footerHints(state, columns, helpPages)}
    </Text>
  );
}
