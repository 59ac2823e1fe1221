import { Box, type Key, Text, useInput } from 'ink';
import { useMemo, useSyncExternalStore } from 'react';
import type { TuiController } from '../controller.js';
import { useNow } from '../hooks/use-now.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import { diffLines } from '../model/diff-lines.js';
import type { KeyPress } from '../model/keys.js';
import { computeLayout } from '../model/layout.js';
import { type LogLine, logLines } from '../model/log-lines.js';
import { isActive } from '../model/run-view.js';
import { selectedPrd } from '../model/tui-state.js';
import { Completion } from './completion.js';
import { Dashboard } from './dashboard.js';
import { DiffView } from './diff-view.js';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { Help } from './help.js';
import { LogView } from './log-view.js';
import { Picker } from './picker.js';
import { PrdTabs } from './prd-tabs.js';
import { Settings } from './settings.js';

export function toKeyPress(input: string, key: Key): KeyPress {
  return {
    input,
    up: key.upArrow,
    down: key.downArrow,
    left: key.leftArrow,
    right: key.rightArrow,
    pageUp: key.pageUp,
    pageDown: key.pageDown,
    enter: key.return,
    escape: key.escape,
    // Most terminals send DEL for Backspace, which Ink reports as `delete`.
    backspace: key.backspace || key.delete,
    ctrl: key.ctrl,
  };
}

const NO_LINES: readonly LogLine[] = [];

export function App({ controller, now }: { controller: TuiController; now?: () => number }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const layout = computeLayout(useTerminalSize());
  const prd = selectedPrd(state);
  const nowMs = useNow(prd !== undefined && isActive(prd.run), now);
  const view = state.view;
  const cards = prd?.run.log.cards.items;
  const log = useMemo(
    () => (view.kind === 'log' && cards !== undefined ? logLines(cards, layout.columns) : NO_LINES),
    [view.kind, cards, layout.columns],
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

  useInput((input, key) =>
    controller.press(toKeyPress(input, key), {
      pageSize: layout.pageSize,
      logLines: log.length,
      diffLines: diff.length,
    }),
  );

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
        return <Dashboard prd={prd} layout={layout} />;
      case 'log':
        return <LogView prd={prd} lines={log} height={layout.pageSize} />;
      case 'diff':
        return <DiffView view={view} lines={diff} height={layout.pageSize} />;
      case 'picker':
        return <Picker state={state} index={view.index} height={layout.bodyHeight} />;
      case 'help':
        return <Help height={layout.bodyHeight} />;
      case 'settings':
        return <Settings state={state} view={view} height={layout.bodyHeight} />;
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
      <Header prd={prd} nowMs={nowMs} />
      <PrdTabs state={state} />
      <Box height={layout.bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
      <Text dimColor wrap="truncate-end">
        ▸ {prd.run.activity === '' ? '—' : prd.run.activity}
      </Text>
      <Footer state={state} />
    </Box>
  );
}
