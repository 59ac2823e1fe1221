import { z } from 'zod';
import type { JsonOriginals, Prd } from '../core/types.js';

/**
 * prd.json fields that a prd.md has no place for (ralph-tui's `labels`,
 * `completionNotes`, `metadata`, any other field of a story or of the file)
 * travel through markdown in one HTML comment, so `ralph convert` json -> md
 * -> json gives them back. Chief and ralph-tui skip it: it sits before the
 * first story, where neither reads anything, and its JSON has no `*`, `<`,
 * `>` or `--` that a markdown reader could take for structure.
 */
const OPENING = '<!-- ralph: prd.json fields that markdown has no place for; ralph convert reads them back';

export interface FieldsComment {
  /** 0-based index of the opening line. */
  start: number;
  /** Index after the closing `-->` line. */
  end: number;
  json: string;
}

const isOpening = (line: string): boolean => /^\s*<!--\s*ralph:/.test(line);

/** The first such comment outside code fences, if any. */
export function findFieldsComment(
  lines: readonly string[],
  fenced: readonly boolean[],
): FieldsComment | undefined {
  const start = lines.findIndex((line, i) => !fenced[i] && isOpening(line));
  if (start < 0) return undefined;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const close = line.indexOf('-->', i === start ? line.indexOf('<!--') + 4 : 0);
    if (close < 0) continue;
    const body = lines.slice(start + 1, i);
    if (i > start && line.slice(0, close).trim() !== '') body.push(line.slice(0, close));
    return { start, end: i + 1, json: body.join('\n') };
  }
  return { start, end: lines.length, json: lines.slice(start + 1).join('\n') };
}

const originalSchema = z.object({ value: z.record(z.string(), z.unknown()), reading: z.string() }).strict();

const carriedSchema = z
  .object({
    fields: z.record(z.string(), z.unknown()).optional(),
    stories: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    /** The prd.json's objects markdown cannot give back exactly (json-originals.ts). */
    json: z
      .object({ top: originalSchema.optional(), stories: z.record(z.string(), originalSchema) })
      .strict()
      .optional(),
  })
  .strict();

export type CarriedFields = z.infer<typeof carriedSchema>;

export function parseFieldsComment(
  json: string,
): { ok: true; value: CarriedFields } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = json.trim() === '' ? {} : JSON.parse(json);
  } catch (error) {
    return { ok: false, message: `the ralph fields comment is not JSON: ${(error as Error).message}` };
  }
  const parsed = carriedSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      message:
        'the ralph fields comment must be {"fields": {...}, "stories": {"ID": {...}}, "json": {"top": {...}, "stories": {...}}}',
    };
  }
  return { ok: true, value: parsed.data };
}

/** JSON whose strings cannot end the comment or read as markdown emphasis. */
function inert(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .replace(/--/g, '-\\u002d')
    .replace(/[*<>]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`);
}

/** The comment's lines for a PRD, or none when it has nothing markdown cannot hold. */
export function fieldsCommentLines(prd: Prd, originals?: JsonOriginals): string[] {
  const carried: CarriedFields = {};
  if (prd.otherFields && Object.keys(prd.otherFields).length > 0) carried.fields = prd.otherFields;
  const stories = Object.fromEntries(
    prd.stories
      .filter((s) => s.otherFields && Object.keys(s.otherFields).length > 0)
      .map((s) => [s.id, s.otherFields ?? {}]),
  );
  if (Object.keys(stories).length > 0) carried.stories = stories;
  if (originals) carried.json = originals as CarriedFields['json'];
  if (carried.fields === undefined && carried.stories === undefined && carried.json === undefined) return [];
  return [OPENING, inert(carried), '-->'];
}
