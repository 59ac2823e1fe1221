import { readTextOrNull } from '../state/fs-util.js';
import { WORKFLOW_NAME, workflowFile } from '../state/layout.js';

/** The prompt a `workflow:` hook names; a missing file is the hook's failure, with the path it looked at. */
export async function readWorkflowPrompt(dir: string, name: string): Promise<string> {
  if (!WORKFLOW_NAME.test(name)) throw new Error(`invalid workflow name ${JSON.stringify(name)}`);
  const file = workflowFile(dir, name);
  const text = await readTextOrNull(file);
  if (text === null) throw new Error(`no workflow file ${file}`);
  if (text.trim() === '') throw new Error(`the workflow file ${file} is empty`);
  return text.trim();
}
