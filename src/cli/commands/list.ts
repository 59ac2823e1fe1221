import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { readPrd } from '../../sources/load-task-source.js';
import { findProjectRoot } from '../../state/project-root.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { liveTaskPath } from '../task-context.js';

interface ListedPrd {
  name: string;
  title: string | null;
  done: number;
  total: number;
  errors: number;
}

export async function listCommand(opts: { json?: boolean }): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const names = await prdNames(root);
  const rows: ListedPrd[] = [];
  for (const name of names) rows.push(await describe(root, name));

  if (opts.json) {
    console.log(JSON.stringify(rows, null, 2));
    return ExitCode.Success;
  }
  if (rows.length === 0) {
    console.log('no PRDs in .ralph/prds (create one with `ralph new`, or see `ralph init`)');
    return ExitCode.Success;
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    const progress =
      r.errors > 0 ? `invalid (${r.errors} error${r.errors === 1 ? '' : 's'})` : `${r.done}/${r.total}`;
    console.log(`${r.name.padEnd(width)}  ${progress.padEnd(7)}  ${r.title ?? ''}`);
  }
  return ExitCode.Success;
}

async function prdNames(root: string): Promise<string[]> {
  try {
    const entries = await readdir(join(root, '.ralph', 'prds'), { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

async function describe(root: string, name: string): Promise<ListedPrd> {
  try {
    const target = await resolveTarget(root, name);
    const result = await readPrd(liveTaskPath(root, target));
    if (!result.ok) return { name, title: null, done: 0, total: 0, errors: result.issues.length };
    const stories = result.prd.stories;
    return {
      name,
      title: result.prd.project,
      done: stories.filter((s) => s.status === 'done').length,
      total: stories.length,
      errors: 0,
    };
  } catch {
    // A PRD folder without a task file: listed, so the user sees it.
    return { name, title: null, done: 0, total: 0, errors: 1 };
  }
}
