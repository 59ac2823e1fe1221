import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { git, runGit } from './git.js';

/**
 * Makes git ignore `dirs` (relative to the work tree root, each ending in
 * `/`) in this clone only, through `info/exclude`: unlike a `.gitignore`,
 * nothing new shows in `git status` and nothing waits to be committed.
 * Directories some ignore file already covers are left alone. Returns the
 * patterns added.
 */
export async function ignoreLocally(cwd: string, dirs: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const dir of dirs) {
    const check = await runGit(['check-ignore', '-q', '--', dir], { cwd, allowFailure: true });
    if (check.exitCode === 1) missing.push(dir);
  }
  if (missing.length === 0) return [];
  const file = path.resolve(cwd, await git(['rev-parse', '--git-path', 'info/exclude'], { cwd }));
  const text = await readFile(file, 'utf8').catch(() => '');
  const patterns = missing.map((dir) => `/${dir}`);
  const lineBreak = text === '' || text.endsWith('\n') ? '' : '\n';
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${text}${lineBreak}# ralph run state and worktrees\n${patterns.join('\n')}\n`);
  return patterns;
}
