/** Rendering the PRD writer's prompt templates (prompts/prd-*.md). Pure. */
import { renderTemplate } from '../core/prompt.js';
import type { StoryStatus } from '../core/types.js';

export interface WriterPromptInput {
  /** Where the agent writes the PRD, as it should read it (relative to its working directory). */
  prdPath: string;
  /** The user's description of the feature or the change; may be empty in an interactive session. */
  request: string;
  /** Whether a person is there to answer clarifying questions. */
  interactive: boolean;
  /** The configured gate commands, so the criteria name checks that will really run. */
  checks: readonly string[];
}

export interface ExistingStory {
  id: string;
  title: string;
  status: StoryStatus;
}

export interface EditPromptInput extends WriterPromptInput {
  stories: readonly ExistingStory[];
  /** The id a first new story takes. */
  nextId: string;
}

export interface RepairPromptInput {
  /** The prompt the rejected attempt was given. */
  task: string;
  prdPath: string;
  /** No file was written at all. */
  missing: boolean;
  /** What was wrong, one line each (`file:line:col: message`). */
  problems: readonly string[];
}

const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

function commonValues(input: WriterPromptInput): Record<string, string | boolean> {
  return {
    prdPath: input.prdPath,
    request: input.request.trim(),
    interactive: input.interactive,
    checks: input.checks.map((c) => `- ${code(c)}`).join('\n'),
  };
}

const finish = (text: string): string => `${text.trimEnd()}\n`;

export function renderNewPrompt(template: string, input: WriterPromptInput): string {
  return finish(renderTemplate(template, commonValues(input)));
}

export function renderEditPrompt(template: string, input: EditPromptInput): string {
  const stories =
    input.stories.length === 0
      ? '(none yet)'
      : input.stories.map((s) => `- ${s.id} (${s.status}): ${s.title}`).join('\n');
  return finish(renderTemplate(template, { ...commonValues(input), stories, nextId: input.nextId }));
}

export function renderRepairPrompt(template: string, input: RepairPromptInput): string {
  return finish(
    renderTemplate(template, {
      task: input.task.trimEnd(),
      prdPath: input.prdPath,
      missing: input.missing,
      problems: input.problems.map((p) => `- ${p}`).join('\n'),
    }),
  );
}
