import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readTextOrNull } from './fs-util.js';
import { ralphDir } from './layout.js';

export type FileAction = 'created' | 'updated' | 'unchanged' | 'skipped';

/** Run state and worktrees never belong in git; prds/ and config.yaml do. */
const RALPH_IGNORES = ['runs/', 'worktrees/'];

/**
 * Makes sure `.ralph/.gitignore` ignores `runs/` and `worktrees/`. Called by
 * every command that creates files under `.ralph/`, so this holds even for
 * projects that never ran `ralph init`.
 */
export async function ensureRalphGitignore(root: string): Promise<FileAction> {
  return ensureLines(path.join(ralphDir(root), '.gitignore'), RALPH_IGNORES, '');
}

async function ensureLines(file: string, entries: readonly string[], header: string): Promise<FileAction> {
  const text = await readTextOrNull(file);
  const present = new Set((text ?? '').split(/\r?\n/).map(normalise));
  const missing = entries.filter((entry) => !present.has(normalise(entry)));
  if (missing.length === 0) return 'unchanged';
  const block = [...(header !== '' ? [header] : []), ...missing].join('\n');
  if (text === null) {
    await writeFileAtomic(file, `${block}\n`);
    return 'created';
  }
  const lineBreak = text === '' || text.endsWith('\n') ? '' : '\n';
  const separator = text !== '' && header !== '' ? `${lineBreak}\n` : lineBreak;
  await writeFileAtomic(file, `${text}${separator}${block}\n`);
  return 'updated';
}

/** `/.ralph/runs`, `.ralph/runs` and `.ralph/runs/` ignore the same folder. */
function normalise(line: string): string {
  const trimmed = line.trim();
  return `${trimmed.replace(/^\//, '').replace(/\/+$/, '')}/`;
}
