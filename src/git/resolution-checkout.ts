import { addedLinesOf } from '../core/kept-lines.js';
import { git, runGit } from './git.js';
import { restorePathsFrom } from './restore-paths.js';
import { prepareDetachedStoryCheckout } from './story-worktree.js';

// No editor may open in an unattended run.
const NO_EDITOR = { GIT_EDITOR: 'true' };

export interface ResolutionCheckout {
  /** The files git could not combine, conflict markers in them. */
  conflicts: string[];
  /** Their diff with the markers, as the agent will see it. */
  diff: string;
}

/**
 * A story's checkout made ready for its agent to bring its verified work
 * (`base..head`) onto the PRD branch's new `tip`: detached at `tip`, so
 * the story's branch (its verdict) does not move, with the story's changes
 * merged in and left uncommitted (`git merge --squash`), conflicts marked
 * in the files. The tool's own files are put back as they are on `tip`.
 */
export async function prepareResolutionCheckout(
  root: string,
  request: { dir: string; tip: string; head: string; toolPaths: readonly string[] },
): Promise<ResolutionCheckout> {
  const { dir, tip, head } = request;
  await prepareDetachedStoryCheckout(root, { dir, at: tip });
  // One conflict style whatever the user's config says: the markers the prompt and the checks expect.
  const merged = await runGit(
    ['-c', 'merge.conflictStyle=merge', 'merge', '--squash', '--no-commit', '--quiet', head],
    {
      cwd: dir,
      env: NO_EDITOR,
      allowFailure: true,
    },
  );
  const unmerged = await unmergedPaths(dir);
  // Exit 1 with conflicts is what a conflict looks like; anything else is git failing.
  if (merged.exitCode !== 0 && unmerged.length === 0) {
    throw new Error(`git merge --squash ${head} failed in ${dir}: ${merged.stderr.trim()}`);
  }
  await restorePathsFrom(dir, tip, request.toolPaths);
  const conflicts = await unmergedPaths(dir);
  const diff =
    conflicts.length === 0
      ? ''
      : (await runGit(['diff', '--no-color', '--no-ext-diff', '--', ...conflicts.map(literal)], { cwd: dir }))
          .stdout;
  return { conflicts, diff };
}

const literal = (file: string) => `:(literal)${file}`;

async function unmergedPaths(cwd: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

/** The paths that differ between two commits. */
export async function changedPaths(cwd: string, from: string, to: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '--no-renames', '-z', from, to, '--'], { cwd });
  return out.split('\0').filter(Boolean);
}

/** The diff between two commits, limited to `files` (none: empty). */
export async function diffOf(
  cwd: string,
  from: string,
  to: string,
  files: readonly string[],
): Promise<string> {
  if (files.length === 0) return '';
  return git(['diff', '--no-color', '--no-ext-diff', from, to, '--', ...files.map(literal)], { cwd });
}

/** The lines `to` adds to `file` over `from`. */
export async function addedLines(cwd: string, from: string, to: string, file: string): Promise<string[]> {
  const diff = await git(['diff', '-U0', '--no-color', '--no-ext-diff', from, to, '--', literal(file)], {
    cwd,
  });
  return addedLinesOf(diff);
}

/** The text of `file` at `rev`, or null when it is not there. */
export async function textAt(cwd: string, rev: string, file: string): Promise<string | null> {
  const shown = await runGit(['cat-file', 'blob', `${rev}:${file}`], { cwd, allowFailure: true });
  return shown.exitCode === 0 ? shown.stdout : null;
}

/** Commits what a clean merge staged; null when it staged nothing. */
export async function commitMerged(dir: string, message: string): Promise<string | null> {
  const staged = await runGit(['diff', '--cached', '--quiet'], { cwd: dir, allowFailure: true });
  if (staged.exitCode === 0) return null;
  await git(['commit', '--quiet', '--no-edit', '-m', message], { cwd: dir, env: NO_EDITOR });
  return git(['rev-parse', 'HEAD'], { cwd: dir });
}
