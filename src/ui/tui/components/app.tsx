import { Box, type Key, useInput } from 'ink';
import { useMemo, useSyncExternalStore } from 'react';
import type { TuiController } from '../controller.js';
import { useNow } from '../hooks/use-now.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import { diffLines } from '../model/diff-lines.js';
import { helpPageCount } from '../model/help-lines.js';
import { keyPresses } from '../model/key-input.js';
import { computeLayout } from '../model/layout.js';
import { type LogLine, logLines } from '../model/log-lines.js';
import { ringItems } from '../model/ring.js';
import { isActive } from '../model/run-view.js';
import { selectedPrd, type TuiState } from '../model/tui-state.js';
import { ActivityBar } from './activity-bar.js';
import { AnswerPrompt } from './answer-prompt.js';
import { Completion } from './completion.js';
import { Dashboard } from './dashboard.js';
import { DiffView } from './diff-view.js';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { Help } from './help.js';
import { LogView } from './log-view.js';
import { NamePrompt } from './name-prompt.js';
import { Notice } from './notice.js';
import { Picker } from './picker.js';
import { PrdTabs } from './prd-tabs.js';
import { Settings } from './settings.js';
import { Text } from './text.js';

const NO_LINES: readonly LogLine[] = [];

/** A text field has the keys: a paste stays one piece of text. */
const isTyping = (state: TuiState): boolean =>
  state.view.kind === 'prompt' ||
  state.view.kind === 'answer' ||
  (state.view.kind === 'settings' && state.view.editing !== null);

export function App({ controller, now }: { controller: TuiController; now?: () => number }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const size = useTerminalSize();
  const layout = useMemo(() => computeLayout(size), [size]);
  const prd = selectedPrd(state);
  const nowMs = useNow(prd !== undefined && isActive(prd.run), now);
  const view = state.view;
  const ring = prd?.run.log.cards;
  const log = useMemo(
    () => (view.kind === 'log' && ring !== undefined ? logLines(ringItems(ring), layout.columns) : NO_LINES),
    [view.kind, ring, layout.columns],
  );
  const diffText = view.kind === 'diff' ? view.text : null;
  const diffStatus = view.kind === 'diff' ? view.status : null;
  const diff = useMemo(
    () =>
      diffText === null
        ? NO_LINES
        : diffStatus === 'error'
          ? [{ text: diffText, style: 'bad' as const }]
          : diffLines(diffText),
    [diffText, diffStatus],
  );
  const helpPages = helpPageCount(layout.columns, layout.bodyHeight);

  useInput((input: string, key: Key) => {
    const metrics = { pageSize: layout.pageSize, logLines: log.length, diffLines: diff.length, helpPages };
    for (const press of keyPresses(input, key, isTyping(controller.getState())))
      controller.press(press, metrics);
  });

  if (prd === undefined) {
    return (
      <Box flexDirection="column">
        <Text>No PRDs found: create one with `ralph new` (or `ralph init` for an example).</Text>
        <Text dimColor>q quit</Text>
      </Box>
    );
  }

  const body = (() => {
    switch (view.kind) {
      case 'dashboard':
        return <Dashboard prd={prd} layout={layout} nowMs={nowMs} />;
      case 'log':
        return <LogView prd={prd} lines={log} height={layout.pageSize} />;
      case 'diff':
        return <DiffView view={view} lines={diff} height={layout.pageSize} />;
      case 'picker':
        return <Picker state={state} index={view.index} height={layout.bodyHeight} />;
      case 'help':
        return <Help columns={layout.columns} height={layout.bodyHeight} page={view.page} />;
      case 'settings':
        return <Settings state={state} view={view} height={layout.bodyHeight} />;
      case 'notice':
        return <Notice view={view} columns={layout.columns} height={layout.bodyHeight} />;
      case 'prompt':
        return <NamePrompt view={view} height={layout.bodyHeight} />;
      case 'answer':
        return <AnswerPrompt view={view} columns={layout.columns} height={layout.bodyHeight} />;
      case 'completion':
        return (
          <Completion
            prd={prd}
            settings={state.settings}
            columns={layout.columns}
            height={layout.bodyHeight}
          />
        );
    }
  })();

  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows - 1}>
      <Header prd={prd} nowMs={nowMs} columns={layout.columns} agentProblem={state.agentProblem} />
      <PrdTabs state={state} />
      <Box height={layout.bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
      <ActivityBar prd={prd} nowMs={nowMs} />
      <Footer state={state} columns={layout.columns} helpPages={helpPages} />
    </Box>
  );
}
