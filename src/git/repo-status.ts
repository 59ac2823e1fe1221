import { runGit } from './git.js';
import type { StatusEntry } from './status.js';

/** What one `git status --porcelain=v2 --branch` says: HEAD, the branch, and every change. */
export interface RepoStatus {
  /** The commit HEAD points at; null in a repository with no commits yet. */
  head: string | null;
  /** The checked-out branch's short name (also on an unborn branch); null when HEAD is detached. */
  branch: string | null;
  /** Staged, unstaged and untracked changes, as `statusPorcelain` lists them (v1 codes, ignored files left out). */
  entries: StatusEntry[];
}

/**
 * Parses `git status --porcelain=v2 --branch -z`. Headers come first
 * (`# branch.oid <sha>|(initial)`, `# branch.head <name>|(detached)`), then
 * one record per path: `1 XY ... path`, `2 XY ... path\0origPath` (a rename
 * or copy), `u XY ... path` (unmerged), `? path`, `! path` (ignored). The
 * v2 code writes an unchanged side as `.`; entries carry the v1 code.
 */
export function parseStatusV2(output: string): RepoStatus {
  const status: RepoStatus = { head: null, branch: null, entries: [] };
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    const kind = field[0];
    if (kind === '#') {
      const [, key, value = ''] = /^# (\S+) (.*)$/s.exec(field) ?? [];
      if (key === 'branch.oid' && value !== '(initial)') status.head = value;
      if (key === 'branch.head' && value !== '(detached)') status.branch = value;
    } else if (kind === '1' || kind === '2' || kind === 'u') {
      // The path follows a fixed number of space-separated fields, and may itself hold spaces.
      const before = kind === '1' ? 8 : kind === '2' ? 9 : 10;
      const entry: StatusEntry = {
        code: field.slice(2, 4).replaceAll('.', ' '),
        path: afterFields(field, before),
      };
      if (kind === '2') {
        i++;
        const from = fields[i];
        if (from !== undefined) entry.from = from;
      }
      status.entries.push(entry);
    } else if (kind === '?') {
      status.entries.push({ code: '??', path: field.slice(2) });
    }
  }
  return status;
}

/** What follows the first `count` space-separated fields of `record`. */
function afterFields(record: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}

/**
 * HEAD, the branch and every change in the work tree from one git process,
 * where `headSha`, `currentBranch` and `statusPorcelain` take three or more.
 * Untracked files are listed one by one, renames as a deletion and an
 * addition, ignored files not at all: as `statusPorcelain`.
 */
export async function repoStatus(cwd: string): Promise<RepoStatus> {
  const args = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--no-renames'];
  const { stdout } = await runGit(args, { cwd });
  return parseStatusV2(stdout);
}
