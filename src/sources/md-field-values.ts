import type { StoryStatus } from '../core/types.js';
import type { MdField } from './md-lines.js';

/** Chief's status words (internal/prd/markdown.go), plus spelling variants. */
const STATUS_WORDS: Record<string, StoryStatus> = {
  done: 'done',
  complete: 'done',
  completed: 'done',
  passed: 'done',
  'in-progress': 'in-progress',
  'in progress': 'in-progress',
  in_progress: 'in-progress',
  started: 'in-progress',
  todo: 'todo',
  'to do': 'todo',
  'to-do': 'todo',
  pending: 'todo',
  '': 'todo',
};

const plain = (value: string): string => value.replace(/[`*_]/g, '').trim();

/** A status word, alone or followed by a remark (`done ← set by ralph`, `done (2025-01-02)`). */
const STATUS_START = /^(in[ _-]progress|to[ -]do|[a-z]+)(?=$|[\s(,;])/;

export function parseMdStatus(value: string): StoryStatus | undefined {
  const text = plain(value).toLowerCase();
  return STATUS_WORDS[text] ?? STATUS_WORDS[STATUS_START.exec(text)?.[1] ?? '-'];
}

/**
 * `3`, `2.5`, `.5`, `+12` (how ralph writes a priority past 9, see
 * convert.ts), or ralph-tui's `P1`, alone or followed by a remark, as Chief
 * reads it.
 */
export function parseMdPriority(value: string): number | undefined {
  const m = /^P?([-+]?(?:\d+(?:\.\d+)?|\.\d+))(?=$|[\s(,;])/i.exec(plain(value));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** Splits `US-001, US-002` (or `none`) into ids. */
export function parseMdDependsOn(value: string): string[] {
  const text = plain(value);
  if (/^(none|n\/a|-|—)?$/i.test(text)) return [];
  return text
    .split(/[,;\s]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/**
 * Whether a field says what a story's field says: a status word, a
 * priority, story ids (or none). `**Status**: Draft → Ready for Review` in a
 * document's footer, or `- **Dependencies:** keep them few` in its
 * technical notes, are not story fields, and do not make the heading above
 * them a story.
 */
export function readsAsStoryField(field: MdField): boolean {
  switch (field.name) {
    case 'status':
      return parseMdStatus(field.value) !== undefined && plain(field.value) !== '';
    case 'priority':
      return parseMdPriority(field.value) !== undefined;
    case 'depends on':
      // Empty, the label is a list's (`**Dependencies:**` above `- curl`), not a story's field.
      return plain(field.value) !== '' && parseMdDependsOn(field.value).every((id) => /\d/.test(id));
    default:
      return false;
  }
}
