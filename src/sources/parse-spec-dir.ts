import { join } from 'node:path';
import type { Prd, Story } from '../core/types.js';
import { hasErrors, type ValidationIssue } from '../core/validation-issue.js';
import { parseSpecFile } from './parse-spec-file.js';
import { classifySpecPath } from './spec-path.js';
import type { ReadResult } from './task-source.js';

export interface SpecFileText {
  /** Posix path relative to the specs directory, e.g. `epic-1/story-1.2-login.md`. */
  relPath: string;
  text: string;
}

interface Entry {
  story: Story;
  epic: number;
  number: number;
  fmPriority: number | undefined;
}

const compare = (a: Entry, b: Entry): number =>
  a.epic - b.epic ||
  a.number - b.number ||
  (a.fmPriority ?? Number.POSITIVE_INFINITY) - (b.fmPriority ?? Number.POSITIVE_INFINITY) ||
  a.story.location.file.localeCompare(b.story.location.file);

/**
 * Builds the PRD of a spec directory from its files' text. Pure: `dir` is
 * only used to name files in messages and locations.
 *
 * Ordering: the contract orders specs by epic/story number, then priority.
 * Since every story has a distinct number, `priority` is set to the story's
 * position in that order (1-based) so selection follows the numbers; a
 * front-matter `priority` only breaks ties between files that claim the
 * same number (which validation then reports as duplicate ids).
 */
export function parseSpecDir(dir: string, files: readonly SpecFileText[], project: string): ReadResult {
  const issues: ValidationIssue[] = [];
  const entries: Entry[] = [];
  for (const { relPath, text } of files) {
    const file = join(dir, relPath);
    const where = classifySpecPath(relPath);
    if (where.kind === 'ignore') continue;
    if (where.kind === 'skip') {
      issues.push({ file, message: where.message, severity: 'warning' });
      continue;
    }
    const parsed = parseSpecFile(text, file, where.slug);
    issues.push(...parsed.issues);
    if (!parsed.ok) continue;
    const spec = parsed.story;
    if (spec.id !== undefined && spec.id !== where.id) {
      issues.push({
        file,
        line: 1,
        message: `front matter id ${spec.id} differs from the file name; using ${where.id}`,
        severity: 'warning',
      });
    }
    const story: Story = {
      id: where.id,
      title: spec.title,
      description: spec.description,
      acceptanceCriteria: spec.acceptanceCriteria,
      priority: 0,
      status: spec.status,
      dependsOn: spec.dependsOn,
      order: 0,
      location: { file, line: 1, column: 1 },
    };
    entries.push({ story, epic: where.epic, number: where.story, fmPriority: spec.priority });
  }

  if (entries.length === 0 && !hasErrors(issues)) {
    issues.push({
      file: dir,
      message:
        'no stories found: expected files like epic-1/story-1.1-login.md, each starting with YAML front matter between --- lines',
      severity: 'error',
    });
  }

  const stories = entries
    .sort(compare)
    .map((e, index) => ({ ...e.story, order: index + 1, priority: index + 1 }));
  const prd: Prd = { format: 'spec-dir', path: dir, project, stories };
  if (hasErrors(issues)) return { ok: false, issues, partial: prd };
  return { ok: true, prd, warnings: issues };
}
