/** The details panel's lines for one story: what it asks, where it stands, what went wrong, what was learnt. */

import { visibleText } from '../../../core/visible-text.js';
import type { HookTaskLine } from '../session.js';
import { money, storyDuration, wrap } from './format.js';
import type { LogLine } from './log-lines.js';
import { markdownLines } from './markdown-lines.js';
import { STATUS_ICON, type StoryRow } from './stories.js';

const STATE_WORDS = {
  done: 'done',
  'in-progress': 'in progress',
  todo: 'todo',
  parked: 'parked',
  waiting: 'waiting for an answer',
} as const;

export function detailLines(row: StoryRow, width: number, maxAttempts?: number): LogLine[] {
  const w = Math.max(10, width);
  const { story } = row;
  const para = (text: string, style: LogLine['style'] = 'text'): LogLine[] =>
    wrap(text, w).map((t) => ({ text: t, style }));
  const stats = [
    `${STATUS_ICON[row.state]} ${STATE_WORDS[row.state]}`,
    row.attempts > 0 ? `attempts ${row.attempts}${maxAttempts ? `/${maxAttempts}` : ''}` : null,
    row.durationMs > 0 ? storyDuration(row.durationMs) : null,
    row.costUsd > 0 ? money(row.costUsd) : null,
  ].filter((s) => s !== null);
  const lines: LogLine[] = [
    ...para(`${story.id}: ${story.title}`, 'heading'),
    { text: stats.join(' · '), style: row.state === 'parked' ? 'bad' : 'dim' },
  ];
  if (story.description.trim() !== '') lines.push({ text: '', style: 'text' }, ...para(story.description));
  if (story.acceptanceCriteria.length > 0) {
    lines.push({ text: '', style: 'text' }, { text: 'Acceptance criteria', style: 'accent' });
    const box = row.state === 'done' ? '☑' : '☐';
    for (const c of story.acceptanceCriteria) lines.push(...para(`${box} ${c}`));
  }
  if (story.dependsOn.length > 0) lines.push(...para(`Depends on: ${story.dependsOn.join(', ')}`, 'dim'));
  if (row.question !== undefined && row.state !== 'done') {
    const { question } = row;
    lines.push(
      { text: '', style: 'text' },
      { text: 'Question', style: 'accent' },
      ...para(visibleText(question.text)),
    );
    if (question.answer !== undefined) lines.push(...para(`Answer: ${visibleText(question.answer)}`, 'dim'));
    else lines.push(...para('a answers it', 'dim'));
  }
  if (row.lastFailure !== undefined && row.state !== 'done') {
    lines.push({ text: '', style: 'text' }, { text: 'Last failure', style: 'bad' }, ...para(row.lastFailure));
  }
  if (story.progressEntry !== undefined && story.progressEntry.trim() !== '') {
    lines.push({ text: '', style: 'text' }, { text: 'Progress', style: 'accent' });
    lines.push(...markdownLines(story.progressEntry.trim(), w, 'dim'));
  }
  return lines;
}

const HOOK_MARK = { running: '●', completed: '✓', failed: '✗' } as const;

/** The latest hook tasks, newest last, for a goal run's details: what ran after which iteration, and how it went. */
export function hookTaskLines(hooks: readonly HookTaskLine[], width: number): LogLine[] {
  if (hooks.length === 0) return [];
  const w = Math.max(10, width);
  const lines: LogLine[] = [
    { text: '', style: 'text' },
    { text: 'Hook tasks', style: 'accent' },
  ];
  for (const h of hooks) {
    const head = `${HOOK_MARK[h.status]} ${h.hookId}${h.parallel ? ' (parallel)' : ''} after iteration ${h.iteration}`;
    const style = h.status === 'failed' ? 'bad' : h.status === 'running' ? 'text' : 'dim';
    lines.push(
      ...wrap(h.detail ? `${head}: ${h.detail}` : head, w).map((text) => ({ text, style }) as LogLine),
    );
  }
  return lines;
}
