import path from 'node:path';
import { PRD_EDIT_PROMPT, PRD_NEW_PROMPT, PRD_REPAIR_PROMPT } from '../core/embedded-prompts.js';
import { readTextOrNull } from '../state/fs-util.js';
import { ralphDir } from '../state/layout.js';

export type WriterPrompt = 'prd-new' | 'prd-edit' | 'prd-repair';

const BUILT_IN: Record<WriterPrompt, string> = {
  'prd-new': PRD_NEW_PROMPT,
  'prd-edit': PRD_EDIT_PROMPT,
  'prd-repair': PRD_REPAIR_PROMPT,
};

/** Where a project overrides a built-in prompt: `.ralph/prompts/<name>.md`. */
export const promptOverridePath = (root: string, name: WriterPrompt): string =>
  path.join(ralphDir(root), 'prompts', `${name}.md`);

/** The project's own template when it has one, else the built-in one. */
export async function loadWriterTemplate(root: string, name: WriterPrompt): Promise<string> {
  return (await readTextOrNull(promptOverridePath(root, name))) ?? BUILT_IN[name];
}
