import { type IntegrationProblem, whyNotLanded } from './integration-failure.js';
import { ANSI, bullets, commitMessageFor, fenced, inlineCode, renderTemplate } from './prompt.js';
import type { Story } from './types.js';

export interface ResolutionPromptInput {
  template: string;
  project: string;
  story: Pick<Story, 'id' | 'title' | 'description'>;
  /** The stories that landed since the story's attempt started, with their titles when known. */
  landed: readonly { id: string; title?: string }[];
  problem: IntegrationProblem;
  /** For a conflict: what the landed stories and the story itself changed in the conflicting files. */
  theirs?: string;
  ours?: string;
  checks: readonly string[];
  taskFilePath: string;
  progressFilePath: string;
}

/** Long enough for the conflicting parts of a few files; a prompt is not the place for whole files. */
const MAX_DIFF = 6000;

const tail = (text: string): string => {
  const clean = text.replace(ANSI, '').trimEnd();
  return clean.length > MAX_DIFF ? `…\n${clean.slice(-MAX_DIFF)}` : clean;
};

const block = (text: string | undefined): string =>
  text === undefined || text.trim() === '' ? '' : fenced(tail(text));

/**
 * The prompt of a resolution run (prompts/resolve.md): the story, the
 * stories that landed meanwhile, and what to fix — the conflicting files
 * with both sides, or the check that fails on the combination — with the
 * one rule that matters: keep both stories' intent.
 */
export function buildResolutionPrompt(input: ResolutionPromptInput): string {
  const { story, problem } = input;
  const conflict = problem.kind === 'conflict';
  const values = {
    project: input.project,
    'story.id': story.id,
    'story.title': story.title,
    'story.description': story.description.trim(),
    'story.commitMessage': commitMessageFor(story),
    why: whyNotLanded(
      problem,
      input.landed.map((s) => s.id),
    ),
    landed:
      input.landed.length > 0
        ? bullets(input.landed.map((s) => (s.title ? `${s.id}: ${s.title}` : s.id)))
        : '- (stories whose records are not on the branch: the branch moved on)',
    conflict,
    files: conflict ? bullets(problem.files.map(inlineCode)) : '',
    conflictDiff: conflict ? block(problem.diff) : '',
    theirs: conflict ? block(input.theirs) : '',
    ours: conflict ? block(input.ours) : '',
    checkFailed: !conflict,
    'check.command': conflict ? '' : inlineCode(problem.command),
    'check.exitCode': conflict ? '' : String(problem.exitCode),
    'check.output': conflict ? '' : block(problem.outputTail),
    checks: input.checks.map((c) => `- ${inlineCode(c)}`).join('\n'),
    taskFilePath: input.taskFilePath,
    progressFilePath: input.progressFilePath,
  };
  return `${renderTemplate(input.template, values).trimEnd()}\n`;
}
