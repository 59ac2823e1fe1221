/** `git show` / `git diff` output as styled lines: additions green, removals red, hunks cyan. */
import type { LineStyle, LogLine } from './log-lines.js';

export function diffLineStyle(line: string): LineStyle {
  if (line.startsWith('+++') || line.startsWith('---')) return 'heading';
  if (line.startsWith('diff --git') || line.startsWith('index ')) return 'heading';
  if (line.startsWith('commit ')) return 'warn';
  if (line.startsWith('+')) return 'good';
  if (line.startsWith('-')) return 'bad';
  if (line.startsWith('@@')) return 'accent';
  return 'text';
}

export function diffLines(text: string): LogLine[] {
  if (text.trim() === '') return [{ text: 'No changes.', style: 'dim' }];
  const lines = text.replace(/\n$/, '').split(/\r?\n/);
  return lines.map((line) => ({ text: line.replace(/\t/g, '    '), style: diffLineStyle(line) }));
}
