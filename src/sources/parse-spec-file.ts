import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { StoryStatus } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { yamlErrorMessage, yamlToValue } from '../core/yaml-limits.js';
import { splitFrontMatter } from './front-matter.js';
import { checkboxOf, fencedLines, headingOf, listItemOf } from './md-lines.js';
import { specFrontMatterSchema } from './spec-front-matter-schema.js';
import { slugToTitle } from './spec-path.js';
import { shortZodMessages, toValidationIssues } from './zod-issues.js';

/** One spec file's story before the directory assigns order and priority. */
export interface SpecStory {
  title: string;
  description: string;
  acceptanceCriteria: string[];
  status: StoryStatus;
  dependsOn: string[];
  /** Front-matter priority; only a tie-break, see parse-spec-dir.ts. */
  priority?: number;
  /** Front-matter id, when given. */
  id?: string;
}

export type SpecFileResult =
  | { ok: true; story: SpecStory; issues: ValidationIssue[] }
  | { ok: false; issues: ValidationIssue[] };

/** The YAML starts on the file's second line, after the opening `---`. */
const YAML_FIRST_LINE = 2;

const STATUS: Record<string, StoryStatus> = {
  pending: 'todo',
  todo: 'todo',
  'in-progress': 'in-progress',
  in_progress: 'in-progress',
  done: 'done',
};

/** Parses one `story-N.M-slug.md`. Pure: `file` is only used in messages, `slug` for a fallback title. */
export function parseSpecFile(text: string, file: string, slug: string): SpecFileResult {
  const error = (message: string, line = 1, column = 1): SpecFileResult => ({
    ok: false,
    issues: [{ file, line, column, message, severity: 'error' }],
  });
  const split = splitFrontMatter(text);
  if (split === undefined) return error('no YAML front matter (the file must start with a --- line)');
  if (split === 'unclosed') return error('front matter is not closed (expected a --- line after it)');

  const lineCounter = new LineCounter();
  const doc = parseDocument(split.yaml, { lineCounter });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + YAML_FIRST_LINE - 1, column: pos.col };
  };
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = yamlError.linePos?.[0];
    const first = yamlError.message.split('\n')[0] ?? 'invalid YAML';
    const cut = first.search(/ at line \d+, column \d+/);
    const message = yamlErrorMessage(cut >= 0 ? first.slice(0, cut) : first);
    return error(
      `invalid YAML front matter: ${message}`,
      (pos?.line ?? 1) + YAML_FIRST_LINE - 1,
      pos?.col ?? 1,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents))
    return error('front matter must be a YAML mapping', YAML_FIRST_LINE);

  const value = yamlToValue(doc);
  if (!value.ok) {
    const pos = at(value.offset);
    return error(`invalid YAML front matter: ${value.message}`, pos.line, pos.column);
  }
  const parsed = specFrontMatterSchema.safeParse(value.value ?? {}, { error: shortZodMessages });
  if (!parsed.success) {
    const locate = (path: readonly (string | number)[]) => {
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true);
        if (isNode(node) && node.range) return at(node.range[0]);
      }
      return undefined;
    };
    return { ok: false, issues: toValidationIssues(parsed.error.issues, file, locate) };
  }

  const deps = readIds(doc.get('depends_on', true), split.yaml);
  if (deps === 'invalid') {
    const node = doc.get('depends_on', true);
    const pos = isNode(node) && node.range ? at(node.range[0]) : { line: YAML_FIRST_LINE, column: 1 };
    return error('depends_on: expected a story id or a list of story ids', pos.line, pos.column);
  }
  const ids = readIds(doc.get('id', true), split.yaml);

  const fm = parsed.data;
  const body = split.body.replace(/^(\s*\n)+/, '').trimEnd();
  const story: SpecStory = {
    title: fm.title ?? firstH1(body) ?? slugToTitle(slug),
    description: body,
    acceptanceCriteria: acceptanceCriteria(body),
    status: fm.status ? (STATUS[fm.status] ?? 'todo') : 'todo',
    dependsOn: deps,
    ...(fm.priority !== undefined ? { priority: fm.priority } : {}),
    ...(ids !== 'invalid' && ids[0] !== undefined ? { id: ids[0] } : {}),
  };
  return { ok: true, story, issues: [] };
}

const isNode = (value: unknown): value is Node => isScalar(value) || isSeq(value) || isMap(value);

/** Story ids from a scalar or a list of scalars, keeping numbers as written (`1.10`, not 1.1). */
function readIds(node: unknown, yaml: string): string[] | 'invalid' {
  if (node === undefined || (isScalar(node) && node.value === null)) return [];
  const items = isSeq(node) ? node.items : [node];
  const ids: string[] = [];
  for (const item of items) {
    if (!isScalar(item) || item.value === null || typeof item.value === 'object') return 'invalid';
    const raw =
      typeof item.value === 'number' && item.range
        ? yaml.slice(item.range[0], item.range[1])
        : String(item.value);
    for (const part of raw.split(/[,\s]+/)) {
      const id = normaliseSpecId(part);
      if (id !== '') ids.push(id);
    }
  }
  return ids;
}

/** `story-1.2` and ` 1.2 ` both name story `1.2`. */
export const normaliseSpecId = (raw: string): string => raw.trim().replace(/^story-/i, '');

function firstH1(body: string): string | undefined {
  const lines = body.split(/\r?\n/);
  const fenced = fencedLines(lines);
  for (const [i, line] of lines.entries()) {
    const h = fenced[i] ? undefined : headingOf(line);
    if (h?.level === 1 && h.text !== '') return h.text;
  }
  return undefined;
}

/**
 * List items under the first heading that mentions "Acceptance Criteria", up
 * to the next heading of the same or a higher level. The spec skill's
 * `### AC1: Name` blocks of Given / When / Then bullets are one criterion
 * each: `AC1: Name — Given …; When …; Then …`. A `### Files to
 * Create/Modify` list inside the section (the spec template puts it there)
 * names files, not criteria.
 */
function acceptanceCriteria(body: string): string[] {
  const lines = body.split(/\r?\n/);
  const fenced = fencedLines(lines);
  let level: number | undefined;
  /** The level of a files heading whose list is being passed over. */
  let files: number | undefined;
  const items: string[] = [];
  let block: { name: string; parts: string[] } | undefined;
  const endBlock = (): void => {
    if (block) items.push(block.parts.length > 0 ? `${block.name} — ${block.parts.join('; ')}` : block.name);
    block = undefined;
  };
  for (const [i, line] of lines.entries()) {
    if (fenced[i]) continue;
    const h = headingOf(line);
    if (h && level === undefined && /acceptance criteria/i.test(h.text)) {
      level = h.level;
    } else if (h && level !== undefined && h.level <= level) {
      break;
    } else if (h && level !== undefined) {
      endBlock();
      if (files !== undefined && h.level > files) continue;
      files = /^files\b/i.test(h.text) ? h.level : undefined;
      if (/^AC[-\s]?\d+\b/i.test(h.text)) block = { name: h.text, parts: [] };
    } else if (level !== undefined && files === undefined) {
      const text = checkboxOf(line)?.text ?? listItemOf(line) ?? (block ? line.trim() : undefined);
      if (!text) continue;
      if (block) block.parts.push(text.replace(/\*\*([^*]+)\*\*/g, '$1'));
      else items.push(text);
    }
  }
  endBlock();
  return items;
}
