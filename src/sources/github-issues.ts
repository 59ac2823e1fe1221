/**
 * Open GitHub issues read as a PRD: a story per issue, `GH-<number>`, its
 * title, its body as the description, its task-list items (`- [ ] …`) as
 * acceptance criteria, "Depends on #12" / "Blocked by #12" lines as
 * dependencies, and its priority from a `priority:` label (a word or a
 * number), else the issue number. The `ralph:done` label makes a story
 * passed, `ralph:in-progress` one in progress. Pure: the issues come in as
 * data (github/issues-api.ts fetches them).
 */
import { RALPH_LABELS } from '../core/github-comments.js';
import { type RepoRef, repoSlug } from '../core/github-repo.js';
import type { Prd, Story, StoryStatus } from '../core/types.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import type { IssueFields } from '../github/issues-api.js';
import { checkboxOf, fencedLines, indentOf } from './md-lines.js';
import { PRIORITY_WORDS } from './spec-front-matter-schema.js';
import type { ReadResult } from './task-source.js';

export interface IssueSource {
  repo: RepoRef;
  label: string;
  /** What the PRD's `path` says: where the issues are. */
  address: string;
}

export const issueStoryId = (issue: number): string => `GH-${issue}`;

/** The issue number of a `GH-<n>` story id, or null. */
export function issueNumberOf(storyId: string): number | null {
  const m = /^GH-([1-9]\d*)$/.exec(storyId);
  return m?.[1] ? Number(m[1]) : null;
}

/** `github:OWNER/REPO?label=L`: the address of a label's issues, where a file source has its path. */
export const issuesAddress = (repo: RepoRef, label: string): string =>
  `github:${repoSlug(repo)}?label=${encodeURIComponent(label)}`;

/**
 * The issues as a PRD. `passedHere` are stories this process has marked
 * passed: GitHub's issue list may lag behind the label just added.
 */
export function readIssues(
  issues: readonly IssueFields[],
  source: IssueSource,
  passedHere: ReadonlySet<string> = new Set(),
): ReadResult {
  const sorted = [...issues].sort((a, b) => a.number - b.number);
  const known = new Set(sorted.map((i) => i.number));
  const warnings: ValidationIssue[] = [];
  const stories = sorted.map((issue, order): Story => {
    const id = issueStoryId(issue.number);
    const warn = (message: string) =>
      warnings.push({ file: issue.url, message: `${id}: ${message}`, severity: 'warning' });
    const body = readBody(issue.body);
    const dependsOn: string[] = [];
    for (const n of body.references) {
      if (known.has(n)) {
        if (!dependsOn.includes(issueStoryId(n))) dependsOn.push(issueStoryId(n));
      } else {
        warn(
          `depends on #${n}, which is not an open issue labelled ${JSON.stringify(source.label)} (closed, or not labelled): not waited for`,
        );
      }
    }
    return {
      id,
      title: issue.title.trim() || id,
      description: body.description,
      acceptanceCriteria: body.criteria.map((c) => c.text),
      checkedCriteria: body.criteria.map((c) => c.checked),
      priority: priorityOf(issue, warn),
      status: statusOf(issue, passedHere.has(id)),
      dependsOn,
      order,
      location: { file: issue.url },
    };
  });
  const prd: Prd = {
    format: 'github',
    path: source.address,
    project: repoSlug(source.repo),
    description: `Open issues labelled ${JSON.stringify(source.label)} in ${repoSlug(source.repo)}`,
    stories,
  };
  return { ok: true, prd, warnings };
}

function statusOf(issue: IssueFields, passedHere: boolean): StoryStatus {
  if (passedHere || issue.labels.includes(RALPH_LABELS.done)) return 'done';
  return issue.labels.includes(RALPH_LABELS.inProgress) ? 'in-progress' : 'todo';
}

/** The lowest of the issue's `priority:` labels (`critical|high|medium|low` or a number), else its number. */
function priorityOf(issue: IssueFields, warn: (message: string) => void): number {
  const found: number[] = [];
  for (const label of issue.labels) {
    const m = /^priority\s*:\s*(.+)$/i.exec(label.trim());
    if (!m?.[1]) continue;
    const value = m[1].trim().toLowerCase();
    const number = Object.hasOwn(PRIORITY_WORDS, value)
      ? PRIORITY_WORDS[value as keyof typeof PRIORITY_WORDS]
      : /^-?\d+(?:\.\d+)?$/.test(value)
        ? Number(value)
        : null;
    if (number === null)
      warn(
        `label ${JSON.stringify(label)} is not a priority ralph knows (critical, high, medium, low or a number)`,
      );
    else found.push(number);
  }
  return found.length > 0 ? Math.min(...found) : issue.number;
}

interface Criterion {
  text: string;
  checked: boolean;
  indent: number;
}

interface IssueBody {
  description: string;
  criteria: Criterion[];
  /** Issue numbers after "Depends on" / "Blocked by", in order. */
  references: number[];
}

/** "Depends on #1, #2 and #3", "Blocked by: #4", with `#n` or an issue URL. */
const DEPENDENCY =
  /\b(?:depends\s+on|blocked\s+by)\b[*_]*\s*:?[*_]*\s*((?:#\d+|https?:\/\/\S+?\/issues\/\d+)(?:\s*(?:,|&|\band\b)\s*(?:#\d+|https?:\/\/\S+?\/issues\/\d+))*)/gi;

/**
 * The body's task list as criteria (an item indented under another stays
 * with it, as one criterion), its dependency lines, and the rest as the
 * description. Nothing inside a fenced code block counts.
 */
function readBody(body: string): IssueBody {
  const lines = body.split('\n');
  const fenced = fencedLines(lines);
  const criteria: Criterion[] = [];
  const references: number[] = [];
  const description: string[] = [];
  lines.forEach((line, i) => {
    if (fenced[i]) {
      description.push(line);
      return;
    }
    for (const m of line.matchAll(DEPENDENCY)) {
      for (const ref of (m[1] ?? '').matchAll(/(?:#|\/issues\/)(\d+)/g)) references.push(Number(ref[1]));
    }
    const box = checkboxOf(line);
    const last = criteria.at(-1);
    const indent = indentOf(line);
    if (last && indent > last.indent && line.trim() !== '' && (box || /^\s*(?:[-*+]|\d+[.)])\s/.test(line))) {
      last.text += `\n${line.slice(last.indent).trimEnd()}`;
      return;
    }
    if (box && box.text !== '') {
      criteria.push({ text: box.text, checked: box.checked, indent });
      return;
    }
    description.push(line);
  });
  return {
    description: description
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    criteria,
    references,
  };
}
