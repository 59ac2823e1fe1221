/**
 * What an attempt may not leave behind, checked around it outside the
 * sandbox: a git directory pointed elsewhere (refused), refs other than the
 * run's own moved, `.ralph/` changed, a tool file that was not there made
 * (a link through which ralph would write). Each is undone and named.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectionRemoved } from '../core/protections.js';
import { guardGitLayout } from '../git/layout-guard.js';
import { restoreForeignRefs, snapshotRefs } from '../git/refs-guard.js';
import { snapshotRalphFolder, undoRalphFolder } from './ralph-folder-guard.js';

export interface AttemptGuards {
  /** After the agent (and again after the gates): undoes what it must, returns what it undid, in words. */
  settle(headBefore: string): Promise<string[]>;
}

const exists = async (p: string): Promise<boolean> => (await fs.lstat(p).catch(() => null)) !== null;

/** Taken as the attempt starts, before the agent does anything. */
export async function guardAttempt(cwd: string, toolPaths: readonly string[]): Promise<AttemptGuards> {
  guardGitLayout(cwd);
  const [refs, ralph, present] = await Promise.all([
    snapshotRefs(cwd),
    snapshotRalphFolder(cwd),
    Promise.all(toolPaths.map((p) => exists(path.join(cwd, p)))),
  ]);
  const absent = toolPaths.filter((_, i) => !present[i]);
  const isTool = (rel: string) => toolPaths.some((p) => rel === p || rel.startsWith(`${p}/`));
  return {
    async settle(headBefore) {
      guardGitLayout(cwd);
      const words: string[] = [];
      // Made by the attempt where the tool writes: removed, so that ralph writes a file of its own there.
      if (!protectionRemoved('no-follow')) {
        for (const p of absent) {
          if (!(await exists(path.join(cwd, p)))) continue;
          await fs.rm(path.join(cwd, p), { force: true, recursive: true });
          words.push(`removed ${p}, which the attempt made where ralph writes its own file`);
        }
      }
      for (const p of await undoRalphFolder(cwd, ralph, headBefore, isTool))
        words.push(`put back ${p}, which the attempt changed (ralph's configuration is not the agent's)`);
      for (const r of await restoreForeignRefs(cwd, refs)) {
        const did = r.was === null ? 'deleted' : r.now === null ? 'created' : 'moved';
        words.push(`put back ${r.ref}, which the attempt ${did} (only the run's own branch may move)`);
      }
      return words;
    },
  };
}
