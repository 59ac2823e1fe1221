import type { LogLine } from '../model/log-lines.js';
import type { DiffView as DiffState } from '../model/tui-state.js';
import { ScrollView } from './scroll-view.js';

export function DiffView({
  view,
  lines,
  height,
}: {
  view: DiffState;
  lines: readonly LogLine[];
  height: number;
}) {
  const what =
    view.storyId !== null
      ? `${view.storyId} commits`
      : view.attempt !== null
        ? `${view.attempt}, since it began`
        : 'uncommitted changes';
  const body: readonly LogLine[] = view.status === 'loading' ? [{ text: 'loading…', style: 'dim' }] : lines;
  return <ScrollView title={`Diff — ${what}`} lines={body} top={view.top} height={height} />;
}
