import type { LogLine } from '../model/log-lines.js';
import type { PrdView } from '../model/tui-state.js';
import { ScrollView } from './scroll-view.js';

/** The agent stream as cards; `lines` are laid out by the app (it needs their count for scrolling). */
export function LogView({ prd, lines, height }: { prd: PrdView; lines: readonly LogLine[]; height: number }) {
  const dropped = prd.run.log.cards.dropped;
  const title = `Log — ${prd.summary.name}${dropped > 0 ? ` (oldest ${dropped} cards dropped)` : ''}`;
  const shown =
    lines.length === 0 ? [{ text: 'Nothing yet: press s to start.', style: 'dim' as const }] : lines;
  return <ScrollView title={title} lines={shown} top={prd.logTop} height={height} />;
}
