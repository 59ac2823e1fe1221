/**
 * What ralph writes on a GitHub issue: its labels and its comments. Text
 * from the agent (a park reason, a question) is quoted in a code block, a
 * commit subject in a code span, so GitHub shows it as written: no Markdown,
 * no HTML, no image or link, no @mention of anyone.
 */
import { formatUsd } from './money.js';
import { visibleLine, visibleText } from './visible-text.js';

/** The labels ralph sets; the body of an issue is never edited. */
export const RALPH_LABELS = {
  inProgress: 'ralph:in-progress',
  done: 'ralph:done',
  parked: 'ralph:parked',
} as const;

/** How the labels look when ralph creates them in a repository that lacks them. */
export const RALPH_LABEL_LOOKS: Record<string, { color: string; description: string }> = {
  [RALPH_LABELS.inProgress]: { color: 'fbca04', description: 'ralph is working on this issue' },
  [RALPH_LABELS.done]: { color: '0e8a16', description: 'ralph verified this issue on its branch' },
  [RALPH_LABELS.parked]: { color: 'b60205', description: 'ralph gave up on this issue after its retries' },
};

/** `text` in a fenced block longer than any run of backticks inside it. */
export function quoted(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${visibleText(text).trim()}\n${fence}`;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/**
 * One line of others' text (a commit subject) as an inline code span, so
 * GitHub renders it as written: no @mention, no image, no link, no Markdown.
 * The span's backticks outnumber any run inside it; newlines, bidi and
 * zero-width characters show as symbols.
 */
export function inlineQuoted(text: string): string {
  const line = visibleLine(text).trim() || '(empty)';
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

export interface PassComment {
  storyId: string;
  commits: readonly { sha: string; subject: string }[];
  branch: string | null;
  attempt: number;
  costUsd: number;
}

export function passComment(pass: PassComment): string {
  const where = pass.branch ? ` on ${code(pass.branch)}` : '';
  const commits = pass.commits.map((c) => `- ${c.sha} ${inlineQuoted(c.subject)}`);
  const attempts = `${pass.attempt} attempt${pass.attempt === 1 ? '' : 's'}`;
  return [
    `ralph verified ${pass.storyId}${where}: the agent's DONE signal, a new commit, the checks and a clean tree.`,
    '',
    ...(commits.length > 0 ? ['Commits:', ...commits, ''] : []),
    `${attempts}, ${formatUsd(pass.costUsd)}. The issue stays open until the branch is merged.`,
  ].join('\n');
}

export interface ParkComment {
  storyId: string;
  attempts: number;
  reason: string;
  /** The run's name, for the command that tries again. */
  run: string;
}

export function parkComment(park: ParkComment): string {
  return [
    `ralph parked ${park.storyId} after ${park.attempts} attempt${park.attempts === 1 ? '' : 's'}. The last one failed with:`,
    '',
    quoted(park.reason),
    '',
    `The next \`ralph run --source github\` (run ${code(park.run)}) tries it again.`,
  ].join('\n');
}

export interface QuestionComment {
  storyId: string;
  question: string;
  run: string;
}

export function questionComment(ask: QuestionComment): string {
  return [
    `The agent working on ${ask.storyId} asks:`,
    '',
    quoted(ask.question),
    '',
    `Answer with \`ralph answer ${ask.run} ${ask.storyId} "<answer>"\`; the story waits until then.`,
  ].join('\n');
}

/** The lines of a pull request body that close the issues it lands. */
export const closingLines = (numbers: readonly number[]): string =>
  numbers.map((n) => `Closes #${n}`).join('\n');

/**
 * `body` with a marker GitHub does not show (an HTML comment naming what it
 * tells), so that a retry after an answer that never came finds the comment
 * an earlier try posted instead of posting it twice. The marker holds only
 * ralph's own ids: anything else is made safe for an HTML comment.
 */
export function withMarker(body: string, marker: string): string {
  const safe = marker.replace(/[^A-Za-z0-9 ._:-]/g, '_');
  return `${body}\n\n<!-- ralph:${safe} -->`;
}
