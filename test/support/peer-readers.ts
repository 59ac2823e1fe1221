/**
 * How the peers read a task file, rule for rule, so a test can check that
 * what ralph writes is read right by them too. Each function restates the
 * rules of one peer's reader (the copies and commits are named in
 * test/fixtures/peers/README.md):
 *
 * - `chiefReadMd`: Chief's `internal/prd/markdown.go`
 *   (`ParseMarkdownPRDFromString`).
 * - `tuiReadMd`: ralph-tui's `src/prd/parser.ts` (`parsePrdMarkdown`), the
 *   reader behind `ralph-tui convert`.
 * - `tuiReadJson`: ralph-tui's JSON tracker
 *   (`src/plugins/trackers/builtin/json/index.ts`: `validatePrdJsonSchema`,
 *   `mapPriority`).
 */

export interface ChiefStory {
  id: string;
  title: string;
  description: string;
  passes: boolean;
  inProgress: boolean;
  priority: number;
  acceptanceCriteria: string[];
}

export interface ChiefPrd {
  project: string;
  description: string;
  stories: ChiefStory[];
}

const CHIEF_STORY_HEADING = /^#{3,4}\s+([A-Za-z]+-\d+):\s+(.+)$/;
const CHIEF_PROJECT = /^#\s+(?:PRD:\s+)?(.+)$/;
const CHIEF_STATUS = /^\*\*Status:\*\*\s*(.+)$/;
const CHIEF_PRIORITY = /^\*\*Priority:\*\*\s*(.+)$/;
const CHIEF_DESCRIPTION = /^\*\*Description:\*\*\s*(.+)$/;
const CHIEF_CHECKBOX = /^-\s+\[([ xX])\]\s+(.+)$/;

/** Go's `fmt.Sscanf(value, "%g", &f)`: a leading float token (sign, digits, point, exponent), or nothing. */
function goScanFloat(value: string): number | undefined {
  const token = /^[+-]?(?:\d[\d_]*)?(?:\.[\d_]*)?(?:[eE][+-]?\d+)?/.exec(value.trimStart())?.[0] ?? '';
  if (!/\d/.test(token)) return undefined;
  const n = Number(token.replace(/_/g, ''));
  return Number.isNaN(n) ? undefined : n;
}

/** Chief reads a prd.md line by line; `strings.TrimSpace` is applied before every regular expression. */
export function chiefReadMd(content: string): ChiefPrd {
  const prd: ChiefPrd = { project: '', description: '', stories: [] };
  let current: { story: ChiefStory; descLines: string[] } | undefined;
  let introStarted = false;
  let introDone = false;
  let autoPriority = 0;

  const flush = (): void => {
    if (!current) return;
    const { story, descLines } = current;
    if (story.description === '' && descLines.length > 0) story.description = descLines.join(' ');
    if (story.priority === 0) {
      autoPriority++;
      story.priority = autoPriority;
    } else if (story.priority > autoPriority) {
      autoPriority = story.priority;
    }
    prd.stories.push(story);
    current = undefined;
  };

  for (const line of content.split('\n')) {
    const trimmed = line.trim();
    if (line.startsWith('# ') && !line.startsWith('## ')) {
      const m = CHIEF_PROJECT.exec(trimmed);
      if (m) {
        prd.project = (m[1] ?? '').trim();
        introStarted = true;
        continue;
      }
    }
    const heading = CHIEF_STORY_HEADING.exec(trimmed);
    if (heading) {
      flush();
      introDone = true;
      current = {
        story: {
          id: heading[1] ?? '',
          title: (heading[2] ?? '').trim(),
          description: '',
          passes: false,
          inProgress: false,
          priority: 0,
          acceptanceCriteria: [],
        },
        descLines: [],
      };
      continue;
    }
    if (line.startsWith('## ') || line.startsWith('### ')) {
      flush();
      const text = trimmed.replace(/^#+/, '').trim().toLowerCase();
      if (text === 'introduction' || text === 'overview') {
        introStarted = true;
        introDone = false;
      } else {
        introDone = true;
      }
      continue;
    }
    if (current) {
      const { story } = current;
      const status = CHIEF_STATUS.exec(trimmed);
      if (status) {
        const word = (status[1] ?? '').trim().toLowerCase();
        story.passes = ['done', 'complete', 'completed', 'passed'].includes(word);
        story.inProgress = ['in-progress', 'in progress', 'started'].includes(word);
        continue;
      }
      const priority = CHIEF_PRIORITY.exec(trimmed);
      if (priority) {
        const value = goScanFloat((priority[1] ?? '').trim());
        if (value !== undefined && value > 0) story.priority = value;
        continue;
      }
      const description = CHIEF_DESCRIPTION.exec(trimmed);
      if (description) {
        story.description = (description[1] ?? '').trim();
        continue;
      }
      const checkbox = CHIEF_CHECKBOX.exec(trimmed);
      if (checkbox) {
        story.acceptanceCriteria.push((checkbox[2] ?? '').trim());
        continue;
      }
      if (
        trimmed !== '' &&
        story.description === '' &&
        !trimmed.startsWith('**') &&
        !trimmed.startsWith('- ')
      ) {
        current.descLines.push(trimmed);
      }
      continue;
    }
    if (introStarted && !introDone && prd.description === '' && trimmed !== '' && !trimmed.startsWith('#')) {
      prd.description = trimmed;
    }
  }
  flush();
  return prd;
}

/** The ids Chief's story heading can carry: letters, a hyphen, digits. */
export const chiefHoldsId = (id: string): boolean => /^[A-Za-z]+-\d+$/.test(id);

export interface TuiStory {
  id: string;
  title: string;
  acceptanceCriteria: string[];
  priority: number;
  /** Whether a `**Priority:**` line was read, rather than ralph-tui's file-order fallback. */
  priorityRead: boolean;
  dependsOn: string[] | undefined;
}

export interface TuiPrd {
  name: string;
  branchName: string | undefined;
  stories: TuiStory[];
}

const TUI_STRICT_HEADING =
  /^#{2,4}\s+(US-\d{3}|US-\d+(?:\.\d+)+|(?!US-)[A-Z]+-\d+|Feature\s+\d+\.\d+):\s*(.+)$/i;
const TUI_ANY_HEADING = /^(#{2,4})\s+(.+?):\s*(.+)$/;
const TUI_VALID_ID = /^US-\d{3}$|^US-\d+(?:\.\d+)+$|^(?!US-)[A-Z]+-\d+$|^Feature\s+\d+\.\d+$/i;
const TUI_SKIPPED_HEADINGS =
  /^#{1,4}\s*(?:Overview|Description|Summary|Introduction|Background|Goals|Objectives|Requirements|Technical|Implementation|Architecture|Design|Testing|Documentation|Appendix|References|Glossary|Changelog|Notes|Risks|Timeline|Dependencies|Constraints|Assumptions|Scope|Összefoglaló|Leírás|Célok|Követelmények|Technikai|Implementáció|Tesztelés|Dokumentáció):/i;
const TUI_CRITERIA = /\*\*Acceptance Criteria:\*\*|^Acceptance Criteria:$/m;

/** ralph-tui's normalizeStoryId: `Feature 1.1` is `FEAT-1-1`; other ids stay as written. */
function tuiNormaliseId(raw: string): string {
  if (/^(US-\d{3}|[A-Z]+-\d+)$/.test(raw)) return raw;
  const feature = /^Feature\s+(\d+)\.(\d+)$/i.exec(raw);
  return feature ? `FEAT-${feature[1]}-${feature[2]}` : raw;
}

interface TuiSection {
  id: string;
  title: string;
  section: string;
}

/** The three tiers of ralph-tui's findUserStorySections: strict ids, any `X: Y` heading in the stories section, any `X: Y` heading at all. */
function tuiSections(markdown: string): TuiSection[] {
  const lines = markdown.split('\n');
  const collect = (starts: { index: number; id: string; title: string }[], end: (k: number) => number) =>
    starts.map((s, k) => ({ id: s.id, title: s.title, section: lines.slice(s.index, end(k)).join('\n') }));

  const strict: { index: number; id: string; title: string }[] = [];
  lines.forEach((line, index) => {
    const m = TUI_STRICT_HEADING.exec(line);
    if (m) strict.push({ index, id: tuiNormaliseId(m[1] ?? ''), title: (m[2] ?? '').trim() });
  });
  if (strict.length > 0) return collect(strict, (k) => strict[k + 1]?.index ?? lines.length);

  const fallback: { index: number; id: string; title: string }[] = [];
  let inSection = false;
  let sectionEnd = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^#{1,2}\s+.*(?:User\s*Stor(?:y|ies)|Felhasználói\s*történet)/i.test(line)) {
      inSection = true;
      continue;
    }
    if (inSection && /^#{1,2}\s+/.test(line) && !TUI_ANY_HEADING.test(line)) {
      sectionEnd = i;
      break;
    }
    if (!inSection) continue;
    const m = TUI_ANY_HEADING.exec(line);
    if (m) {
      const prefix = (m[2] ?? '').trim();
      const id = TUI_VALID_ID.test(prefix)
        ? tuiNormaliseId(prefix)
        : `STORY-${String(fallback.length + 1).padStart(3, '0')}`;
      fallback.push({ index: i, id, title: (m[3] ?? '').trim() || prefix });
    }
  }
  if (fallback.length > 0) return collect(fallback, (k) => fallback[k + 1]?.index ?? sectionEnd);

  const ultimate: { index: number; id: string; title: string }[] = [];
  lines.forEach((line, index) => {
    if (/^#\s+/.test(line) && !/^##/.test(line)) return;
    if (TUI_SKIPPED_HEADINGS.test(line)) return;
    const m = /^(#{2,4})\s+(.+?):\s*(.+)$/.exec(line);
    if (!m) return;
    const prefix = (m[2] ?? '').trim();
    const id = TUI_VALID_ID.test(prefix)
      ? tuiNormaliseId(prefix)
      : `STORY-${String(ultimate.length + 1).padStart(3, '0')}`;
    ultimate.push({ index, id, title: (m[3] ?? '').trim() || prefix });
  });
  return collect(ultimate, (k) => ultimate[k + 1]?.index ?? lines.length);
}

function tuiCriteria(section: string): string[] {
  const at = section.search(TUI_CRITERIA);
  if (at < 0) return [];
  const criteria: string[] = [];
  let started = false;
  for (const line of section.slice(at).split('\n')) {
    if (!started) {
      if (TUI_CRITERIA.test(line)) started = true;
      continue;
    }
    if (line.startsWith('**') && !line.startsWith('**Acceptance')) break;
    if (line.startsWith('#') || line.startsWith('---')) break;
    const checklist = /^-\s+\[[\sx]\]\s+(.+)$/.exec(line);
    if (checklist?.[1]) {
      criteria.push(checklist[1].trim());
      continue;
    }
    const bullet = /^-\s+(.+)$/.exec(line);
    if (bullet?.[1] && !bullet[1].startsWith('[')) criteria.push(bullet[1].trim());
  }
  return criteria;
}

/** ralph-tui's parsePrdMarkdown, as far as stories go. */
export function tuiReadMd(markdown: string): TuiPrd {
  const title = markdown
    .split('\n')
    .map((line) => /^#\s+(?:PRD:\s*)?(.+)$/.exec(line)?.[1])
    .find((t) => t !== undefined);
  const branch = /^>\s*Branch:\s*`?([^`\n]+)`?/m.exec(markdown)?.[1]?.trim();
  const stories = tuiSections(markdown).map(({ id, title, section }, i): TuiStory => {
    const priorityMatch = /\*\*Priority:\*\*\s*P?(\d)/.exec(section);
    const read = priorityMatch?.[1] === undefined ? 2 : Number.parseInt(priorityMatch[1], 10);
    const explicit = read >= 0 && read <= 4 ? read : 2;
    const deps = /\*\*Depends on:\*\*\s*(.+)/.exec(section)?.[1];
    const dependsOn = deps
      ?.split(/,\s*/)
      .map((d) => d.trim())
      .filter((d) => d.length > 0);
    return {
      id,
      title,
      acceptanceCriteria: tuiCriteria(section),
      priority: explicit !== 2 ? explicit : Math.min(i + 1, 4),
      priorityRead: explicit !== 2,
      dependsOn: dependsOn && dependsOn.length > 0 ? dependsOn : undefined,
    };
  });
  return { name: title?.trim() ?? 'Untitled PRD', branchName: branch, stories };
}

/** The ids ralph-tui's strict story heading reads back as written (`Feature 1.1` is how `FEAT-1-1` is written). */
export const tuiHoldsId = (id: string): boolean =>
  /^US-\d{3}$|^US-\d+(?:\.\d+)+$|^(?!US-)[A-Z]+-\d+$/i.test(id) || /^FEAT-\d+-\d+$/.test(id);

export type TuiJsonRead =
  | { ok: true; name: string; stories: { id: string; title: string; passes: boolean; priority: number }[] }
  | { ok: false; errors: string[] };

/** ralph-tui's JSON tracker: validatePrdJsonSchema, then each story's priority through mapPriority. */
export function tuiReadJson(text: string): TuiJsonRead {
  const data: unknown = JSON.parse(text);
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { ok: false, errors: ['not an object'] };
  const obj = data as Record<string, unknown>;
  if ('prd' in obj || 'tasks' in obj) return { ok: false, errors: ['found "prd" or "tasks"'] };
  const errors: string[] = [];
  const name = 'name' in obj ? obj.name : obj.project;
  if (!name || typeof name !== 'string') errors.push('Missing required field: "name"');
  const stories = obj.userStories;
  if (!Array.isArray(stories)) {
    errors.push('"userStories" must be an array');
    return { ok: false, errors };
  }
  stories.forEach((story: unknown, i) => {
    if (!story || typeof story !== 'object') {
      errors.push(`userStories[${i}]: must be an object`);
      return;
    }
    const s = story as Record<string, unknown>;
    if (!s.id || typeof s.id !== 'string') errors.push(`userStories[${i}]: missing "id"`);
    if (!s.title || typeof s.title !== 'string') errors.push(`userStories[${i}]: missing "title"`);
    if (typeof s.passes !== 'boolean') errors.push(`userStories[${i}]: missing "passes"`);
    const unsupported = ['subtasks', 'estimated_hours', 'files', 'status'].filter((f) => f in s);
    if (unsupported.length > 0) errors.push(`userStories[${i}]: unsupported ${unsupported.join(', ')}`);
  });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    name: name as string,
    stories: (stories as Record<string, unknown>[]).map((s) => ({
      id: s.id as string,
      title: s.title as string,
      passes: s.passes as boolean,
      priority: typeof s.priority === 'number' ? Math.max(0, Math.min(4, s.priority - 1)) : 2,
    })),
  };
}

/**
 * ralphetamine's run order for a `.ralph/stories.txt` (lib/stories.sh and
 * lib/parallel.sh at the commit named in test/fixtures/peers/README.md):
 * the stories with no `# [batch:N]` above them run first, one at a time;
 * then each batch number in the order it first appears, all of its members
 * (wherever in the file) together, `[batch:0]` one at a time. `x ` lines and
 * other comments are not stories.
 */
export interface RalphetamineGroup {
  /** `undefined` for the stories above the first batch marker. */
  batch: string | undefined;
  sequential: boolean;
  ids: string[];
}

const RALPHETAMINE_BATCH = /^[ \t]*#[ \t]*\[batch:([0-9]+(\.[0-9]+)*)\]/;

export function ralphetamineGroups(text: string): RalphetamineGroup[] {
  const unbatched: string[] = [];
  const batches = new Map<string, string[]>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const mark = RALPHETAMINE_BATCH.exec(line);
    if (mark) {
      current = mark[1] ?? '';
      if (!batches.has(current)) batches.set(current, []);
      continue;
    }
    if (line === '' || /^[ \t]*#/.test(line) || /^[ \t]*x[ \t]/.test(line)) continue;
    const id = (line.split('|')[0] ?? '').trim();
    if (id === '') continue;
    if (current === undefined) unbatched.push(id);
    else batches.get(current)?.push(id);
  }
  return [
    ...(unbatched.length > 0 ? [{ batch: undefined, sequential: true, ids: unbatched }] : []),
    ...[...batches].map(([batch, ids]) => ({ batch, sequential: batch === '0', ids })),
  ].filter((g) => g.ids.length > 0);
}

/**
 * Chief's migration of an older folder (internal/prd/migrate.go
 * `MigrateFromJSON` and markdown_writer.go `setStoryStatusInString`): each
 * prd.json story with passes / inProgress sets its `**Status:**` line in the
 * prd.md (done ticks the first `- [ ]` of each line of the story), then
 * Chief reads the prd.md. A prd.json Go cannot decode leaves the prd.md as
 * it is (here: not JSON, or a known field of the wrong type).
 */
export function chiefMigrate(md: string, json: string): string {
  let data: { userStories?: { id?: unknown; passes?: unknown; inProgress?: unknown }[] };
  try {
    data = JSON.parse(json);
  } catch {
    return md;
  }
  const stories = data.userStories ?? [];
  const typed = stories.every(
    (s) =>
      s === null ||
      ((s.passes === undefined || s.passes === null || typeof s.passes === 'boolean') &&
        (s.inProgress === undefined || s.inProgress === null || typeof s.inProgress === 'boolean')),
  );
  if (!typed) return md;
  let lines = md.split('\n');
  for (const story of stories) {
    const status = story?.passes === true ? 'done' : story?.inProgress === true ? 'in-progress' : '';
    if (status === '' || typeof story.id !== 'string') continue;
    const quoted = story.id.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
    const heading = new RegExp(`^#{3,4}\\s+${quoted}:\\s+`);
    const start = lines.findIndex((l) => heading.test(l.trim()));
    if (start < 0) continue;
    let end = lines.length;
    for (let i = start + 1; i < lines.length; i++) {
      const t = (lines[i] ?? '').trim();
      if (t.startsWith('## ') || t.startsWith('### ') || t.startsWith('#### ')) {
        end = i;
        break;
      }
    }
    let at = -1;
    for (let i = start + 1; i < end; i++) {
      if (/^\*\*Status:\*\*\s*(.+)$/.test((lines[i] ?? '').trim())) {
        at = i;
        break;
      }
    }
    lines = [...lines];
    if (at >= 0) lines[at] = `**Status:** ${status}`;
    else {
      lines.splice(start + 1, 0, `**Status:** ${status}`);
      end++;
    }
    if (status === 'done')
      for (let i = start + 1; i < end; i++) lines[i] = (lines[i] ?? '').replace('- [ ]', '- [x]');
  }
  return lines.join('\n');
}
