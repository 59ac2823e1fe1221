import type { Story, StoryStatus } from './types.js';
import { shorten, type ValidationIssue } from './validation-issue.js';
import { hasControlCharacters, visibleText } from './visible-text.js';

/**
 * Heuristic checks that a story is fit for one loop iteration: something to
 * verify, criteria a tool or a person can check, a size one fresh agent can
 * finish, browser verification for UI work, and a named gate. They produce
 * warnings (`ralph validate --strict` makes them errors): a PRD can be
 * perfectly parseable and still send the agent off with "works well".
 */

export interface QualityLimits {
  /** More criteria than this and the story is probably several stories. */
  maxCriteria: number;
  /** A description past this many characters is probably more than one iteration of work. */
  maxDescriptionChars: number;
}

export const DEFAULT_QUALITY_LIMITS: QualityLimits = { maxCriteria: 8, maxDescriptionChars: 800 };

/** A story as an earlier version of the same PRD had it (for id reuse). */
export interface PreviousStory {
  id: string;
  title: string;
  status?: StoryStatus;
}

export interface QualityOptions {
  limits?: Partial<QualityLimits>;
  /** The stories of an earlier version (the committed file, or the PRD before an edit). */
  previous?: readonly PreviousStory[];
  /** The config's `checks:` gate every story: a criterion naming a check adds nothing to them. */
  gated?: boolean;
}

const VAGUE =
  /\b(works? (?:well|fine|correctly|properly|as expected|as intended)|as expected|user[- ]friendly|intuitive(?:ly)?|easy to (?:use|understand|read)|seamless(?:ly)?|smooth(?:ly)?|looks? (?:good|nice|great|better)|good (?:ux|user experience|performance)|properly|correctly|gracefully|nicely|robust(?:ly)?|appropriate(?:ly)?|reasonabl[ey]|as needed|etc\.?)(?=\W|$)/gi;
/**
 * Speed words are vague unless the criterion puts a number on them ("under 200 ms"). Names that
 * merely contain one ("Quick Start" section, "fast-forward" merge) are not claims about speed.
 */
const SPEED =
  /\b(fast(?![- ]forward)|faster|quick(?! start)|quickly|performant|efficient(?:ly)?|responsive|snappy|instant(?:ly)?)\b/gi;
const UI =
  /\b(ui|page|pages|button|buttons|form|forms|modal|dialog|dropdown|menu|tooltip|navbar|sidebar|css|frontend|front-end|screen|webpage|click|clicks|layout)\b/i;
const BROWSER = /\b(browser|dev-browser|playwright|cypress|puppeteer|screenshot|visually|storybook)\b/i;
const CHECK =
  /\b(type-?check(?:s|ed)?|type checks?|tsc|tests?|lint(?:s|er|ing)?|compiles?|builds? (?:pass(?:es)?|succeeds?)|checks? pass(?:es)?)\b/i;

/** The phrases that make a criterion uncheckable, as written. */
export function vagueTerms(criterion: string): string[] {
  const found = [...criterion.matchAll(VAGUE)].map((m) => m[0]);
  if (!/\d/.test(criterion)) found.push(...[...criterion.matchAll(SPEED)].map((m) => m[0]));
  return [...new Set(found.map((t) => t.trim()))];
}

export function isUiStory(story: Pick<Story, 'title' | 'description' | 'acceptanceCriteria'>): boolean {
  return [story.title, story.description, ...story.acceptanceCriteria].some((text) => UI.test(text));
}

export const hasBrowserCheck = (criteria: readonly string[]): boolean =>
  criteria.some((c) => BROWSER.test(c));

export const hasCheckCriterion = (criteria: readonly string[]): boolean =>
  criteria.some((c) => CHECK.test(c));

/** Words that say nothing about which story it is, generic verbs included ("Add X" vs "Add Y"). */
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'for',
  'and',
  'or',
  'with',
  'in',
  'on',
  'by',
  'as',
  'add',
  'create',
  'show',
  'display',
  'implement',
  'support',
  'allow',
  'make',
  'update',
  'new',
]);

function titleWords(title: string): Set<string> {
  const words = title
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !STOP_WORDS.has(w))
    // A crude stem, so "event" and "events" count as one word.
    .map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w));
  return new Set(words);
}

/** Normalised title, for recognising the same story under another id. */
export const titleKey = (title: string): string => [...titleWords(title)].join(' ');

/**
 * Whether two titles plausibly name the same story: the smaller word set
 * mostly contained in the larger, so "Add login" and "Add login form" match
 * and "Add login" and "Add signup" do not.
 */
export function sameStoryTitle(a: string, b: string): boolean {
  const wa = titleWords(a);
  const wb = titleWords(b);
  if (wa.size === 0 || wb.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase();
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / Math.min(wa.size, wb.size) > 0.5;
}

/** Warnings for every story; pure, so `ralph validate` and the PRD writer share it. */
export function checkStoryQuality(
  stories: readonly Story[],
  options: QualityOptions = {},
): ValidationIssue[] {
  const limits = { ...DEFAULT_QUALITY_LIMITS, ...options.limits };
  const previous = new Map((options.previous ?? []).map((p) => [p.id, p]));
  return stories.flatMap((story) =>
    storyIssues(story, limits, previous.get(story.id), options.gated === true),
  );
}

function storyIssues(
  story: Story,
  limits: QualityLimits,
  previous: PreviousStory | undefined,
  gated: boolean,
): ValidationIssue[] {
  const messages: string[] = [...controlCharacterWarnings(story)];
  const criteria = story.acceptanceCriteria.filter((c) => c.trim() !== '');
  if (criteria.length === 0) {
    messages.push('no acceptance criteria: nothing tells the agent (or you) when the story is done');
  }
  for (const criterion of criteria) {
    const vague = vagueTerms(criterion);
    if (vague.length > 0) {
      messages.push(
        `criterion "${criterion}" is not checkable (${vague.map((v) => `"${v}"`).join(', ')}): say what to observe`,
      );
    }
  }
  if (criteria.length > limits.maxCriteria) {
    messages.push(
      `${criteria.length} acceptance criteria (more than ${limits.maxCriteria}): probably too big for one iteration; split it`,
    );
  }
  if (story.description.length > limits.maxDescriptionChars) {
    messages.push(
      `description of ${story.description.length} characters (over ${limits.maxDescriptionChars}): probably too big for one iteration; split it`,
    );
  }
  if (criteria.length > 0 && isUiStory(story) && !hasBrowserCheck(criteria)) {
    messages.push('looks like UI work but no criterion verifies it in a browser (e.g. "Verify in browser")');
  }
  if (criteria.length > 0 && !gated && !hasCheckCriterion(criteria)) {
    messages.push('no criterion names a check (e.g. "Typecheck passes", "Tests pass")');
  }
  if (previous && !sameStoryTitle(previous.title, story.title)) {
    messages.push(
      `id reused: ${story.id} was "${previous.title}" in the earlier version; give a new story a new id`,
    );
  }
  const { file, line, column } = story.location;
  return messages.map(
    (message): ValidationIssue => ({
      file,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      path: story.id,
      message,
      severity: 'warning',
    }),
  );
}

/**
 * Control characters in a story's id, title or criteria: a cloned repository's
 * task file can carry terminal escapes (a clipboard write, a screen clear).
 * ralph shows them as symbols everywhere; the warning says they are there.
 */
function controlCharacterWarnings(story: Story): string[] {
  const fields = [
    { name: 'id', text: story.id },
    { name: 'title', text: story.title },
    ...story.acceptanceCriteria.map((text, i) => ({ name: `criterion ${i + 1}`, text })),
  ];
  return fields
    .filter((field) => hasControlCharacters(field.text))
    .map(
      (field) =>
        `${field.name} holds control characters (shown as symbols: "${shorten(visibleText(field.text))}"); a terminal would act on them, so ralph never prints them as they are`,
    );
}
