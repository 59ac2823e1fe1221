import { runGit } from './git.js';

export interface StatusEntry {
  /** Path relative to the work tree root; for a rename, the new path. */
  path: string;
  /** The two-letter porcelain code: `??` untracked, ` M` modified, `A ` added, `R ` renamed, ... */
  code: string;
  /** For renames and copies, the path it came from. */
  from?: string;
}

/**
 * Parses `git status --porcelain=v1 -z`. Entries are `XY path\0`, and a rename
 * or copy is followed by its source path as a separate `\0`-terminated field.
 */
export function parsePorcelainZ(output: string): StatusEntry[] {
  const fields = output.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field === undefined || field.length < 4) continue;
    const code = field.slice(0, 2);
    const entry: StatusEntry = { path: field.slice(3), code };
    if (code.includes('R') || code.includes('C')) {
      const from = fields[i + 1];
      i++;
      if (from !== undefined) entry.from = from;
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * Every change in the work tree: staged, unstaged and untracked (each
 * untracked file listed, not just its folder). Ignored files are not listed.
 * Paths are relative to the work tree root whatever `cwd` is.
 */
export async function statusPorcelain(cwd: string): Promise<StatusEntry[]> {
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'];
  const { stdout } = await runGit(args, { cwd });
  return parsePorcelainZ(stdout);
}
