import { shorten } from '../core/validation-issue.js';

/** A field a reader warns about, by its key in the story. */
export interface AliasNote {
  key: string;
  message: string;
}

export interface AliasedStory {
  /** The story with its aliases read into ralph's field names. */
  story: unknown;
  /** The keys read as another field; they are not carried on their own. */
  consumed: Set<string>;
  notes: AliasNote[];
}

const DEPENDENCY_KEYS = ['dependencies', 'depends_on'] as const;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

/**
 * prd.json as written in the wild names some fields its own way:
 * `dependencies` or `depends_on` for `dependsOn`, `acceptance_criteria` for
 * `acceptanceCriteria`. Such a field is read as ralph's when it says what
 * ralph's says (a dependency list naming this file's stories); otherwise
 * it is kept as it is and a note names the key, so nothing is dropped or
 * misread in silence. `storyIds` are the ids of every story in the file.
 */
export function readAliases(raw: unknown, storyIds: ReadonlySet<string>): AliasedStory {
  const consumed = new Set<string>();
  const notes: AliasNote[] = [];
  if (!isRecord(raw)) return { story: raw, consumed, notes };
  const story: Record<string, unknown> = { ...raw };

  for (const key of DEPENDENCY_KEYS) {
    if (!(key in raw)) continue;
    const ids = stringList(raw[key]);
    if (story.dependsOn !== undefined) {
      notes.push({
        key,
        message: `"${key}" is kept as it is: the story's dependencies are read from "dependsOn"`,
      });
    } else if (ids && (ids.length === 0 || ids.some((id) => storyIds.has(id)))) {
      story.dependsOn = ids;
      consumed.add(key);
    } else {
      const what = ids
        ? `names no story of this file (${shorten(ids.join(', '))})`
        : 'is not a list of story ids';
      notes.push({ key, message: `"${key}" ${what}: kept as it is, not read as dependencies` });
    }
  }

  const criteria = stringList(raw.acceptance_criteria);
  if ('acceptance_criteria' in raw && raw.acceptanceCriteria === undefined && criteria) {
    story.acceptanceCriteria = criteria;
    consumed.add('acceptance_criteria');
  }
  return { story, consumed, notes };
}
