/**
 * Log cards laid out as screen lines for a given width, so the log view can
 * scroll by line. Long texts and tool outputs are folded to a few lines.
 */
import { clip, wrap } from './format.js';
import type { LogCard } from './log-cards.js';

export type LineStyle = 'text' | 'dim' | 'good' | 'bad' | 'warn' | 'accent' | 'heading';

export interface LogLine {
  text: string;
  style: LineStyle;
}

/** Lines of agent text shown per card before folding. */
const TEXT_LINES = 12;

const TOOL_ICONS: Readonly<Record<string, string>> = {
  bash: '$',
  shell: '$',
  run_shell_command: '$',
  write: '✎',
  edit: '✎',
  multiedit: '✎',
  write_file: '✎',
  replace: '✎',
  read: '≡',
  read_file: '≡',
  grep: '⌕',
  glob: '⌕',
  search: '⌕',
  webfetch: '◎',
  websearch: '◎',
  task: '◆',
  todowrite: '☐',
};

export const toolIcon = (name: string): string => TOOL_ICONS[name.toLowerCase()] ?? '⚙';

const STATUS_MARK = { running: '…', ok: '✓', failed: '✗', passed: '✓' } as const;

function folded(text: string, width: number, max: number, style: LineStyle, indent: string): LogLine[] {
  const lines = wrap(text, width - indent.length);
  const shown = lines.slice(0, max).map((t) => ({ text: indent + t, style }));
  if (lines.length > max) shown.push({ text: `${indent}… ${lines.length - max} more lines`, style: 'dim' });
  return shown;
}

export function cardLines(card: LogCard, width: number): LogLine[] {
  const w = Math.max(10, width);
  switch (card.kind) {
    case 'iteration': {
      const label = ` iteration ${card.iteration} · ${card.storyId} ${card.title} · attempt ${card.attempt}/${card.maxAttempts} `;
      return [
        { text: clip(`──${label}${'─'.repeat(Math.max(0, w - label.length - 2))}`, w), style: 'heading' },
      ];
    }
    case 'text':
      return folded(card.text, w, TEXT_LINES, 'text', '');
    case 'tool': {
      const head = `${toolIcon(card.name)} ${card.name} ${card.summary}`.trimEnd();
      const lines: LogLine[] = [
        {
          text: clip(`${head}  ${STATUS_MARK[card.status]}`, w),
          style: card.status === 'failed' ? 'bad' : 'accent',
        },
      ];
      // Results are folded to their first line and a count; the raw stream has the rest.
      if (card.output !== undefined && card.output.trim() !== '') {
        const out = card.output.trim().split('\n');
        const more = out.length > 1 ? `  (+${out.length - 1} lines)` : '';
        lines.push({ text: clip(`  ↳ ${out[0] ?? ''}${more}`, w), style: 'dim' });
      }
      return lines;
    }
    case 'check': {
      const status =
        card.status === 'running'
          ? 'running'
          : card.status === 'passed'
            ? 'passed'
            : `failed (exit ${card.exitCode})`;
      const lines: LogLine[] = [
        {
          text: clip(`▶ check ${card.command}: ${status}`, w),
          style: card.status === 'failed' ? 'bad' : card.status === 'passed' ? 'good' : 'accent',
        },
      ];
      if (card.status === 'failed' && card.outputTail)
        lines.push(...folded(card.outputTail.trim().split('\n').slice(-4).join('\n'), w, 4, 'dim', '  '));
      return lines;
    }
    case 'note':
      return folded(card.text, w, 3, card.tone === 'info' ? 'dim' : card.tone, '');
  }
}

/** Lines of each card, remembered per card object and width: a render then costs little. */
const cache = new WeakMap<LogCard, { width: number; lines: LogLine[] }>();

export function logLines(cards: readonly LogCard[], width: number): LogLine[] {
  const out: LogLine[] = [];
  for (const card of cards) {
    let hit = cache.get(card);
    if (hit === undefined || hit.width !== width) {
      hit = { width, lines: cardLines(card, width) };
      cache.set(card, hit);
    }
    out.push(...hit.lines);
  }
  return out;
}
