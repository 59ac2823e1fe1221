import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { type ConfigTemplateOptions, renderConfigTemplate } from './config-template.js';
import { EXAMPLE_PRD } from './example-prd.js';
import { statOrNull } from './fs-util.js';
import { ensureRalphGitignore, type FileAction } from './gitignore.js';
import { configPath, prdPaths, ralphDir } from './layout.js';
import { listPrdNames } from './resolve-target.js';

export type { FileAction } from './gitignore.js';

export interface InitEntry {
  path: string;
  action: FileAction;
  /** Why a file was skipped. */
  note?: string;
}

export const EXAMPLE_PRD_NAME = 'example';

/**
 * Scaffolds `.ralph/`: config.yaml, `.ralph/.gitignore` and an example PRD.
 * Everything it writes is new and inside `.ralph/`: the project's own
 * `.gitignore` is left alone (the same rules in two places changed a tracked
 * file that then stood in the way of `ralph merge`). Never overwrites: an existing config is skipped, and the example is
 * only added to a project without PRDs (a second PRD would change which one
 * runs by default).
 */
export async function initProject(root: string, options: ConfigTemplateOptions = {}): Promise<InitEntry[]> {
  const entries: InitEntry[] = [];
  const config = configPath(root);
  if (await statOrNull(config)) {
    entries.push({ path: config, action: 'skipped', note: 'already exists; left as it is' });
  } else {
    await writeFileAtomic(config, renderConfigTemplate(options));
    entries.push({ path: config, action: 'created' });
  }
  entries.push({ path: path.join(ralphDir(root), '.gitignore'), action: await ensureRalphGitignore(root) });
  const example = prdPaths(root, EXAMPLE_PRD_NAME).md;
  const existing = await listPrdNames(root);
  if (existing.length > 0) {
    entries.push({ path: example, action: 'skipped', note: `PRDs already exist (${existing.join(', ')})` });
  } else {
    await writeFileAtomic(example, EXAMPLE_PRD);
    entries.push({ path: example, action: 'created' });
  }
  return entries;
}
