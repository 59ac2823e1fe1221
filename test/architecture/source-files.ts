/** The source files of `src/` (tests aside), as the architecture checks read them. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SourceFile } from './import-rules.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export async function sourceFiles(root = REPO_ROOT): Promise<SourceFile[]> {
  const entries = await readdir(path.join(root, 'src'), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  return Promise.all(
    files.sort().map(async (p) => ({ path: p, text: await readFile(path.join(root, p), 'utf8') })),
  );
}
