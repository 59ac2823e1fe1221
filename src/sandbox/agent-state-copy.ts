/**
 * The agents' own state folders (`~/.claude`, `CODEX_HOME`, …) as the box
 * shows them: a copy made once per run, bound at the real path, so nothing
 * the agent writes there — a `settings.json` with a `SessionStart` hook, an
 * MCP server, a plugin, a command, a memory file — reaches the user's real
 * configuration, where the next plain session of the agent CLI (or
 * `ralph new`) would run it unboxed. One thing comes back: a login the CLI
 * refreshed inside (OAuth tokens rotate, and the old one stops working), so
 * after every command the credential files — and only they — are copied
 * back when they changed, as regular files, never through a link.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin } from '../core/sandbox-plan.js';

/** History the CLIs keep in their folders: not needed by a fresh session, and can be large. */
const LEFT_BEHIND = new Set([
  'projects',
  'sessions',
  'file-history',
  'shell-snapshots',
  'todos',
  'debug',
  'log',
  'logs',
]);

/** A login file is small; anything larger is not one the CLI wrote. */
const MAX_LOGIN_BYTES = 1024 * 1024;

/** `p` with its links resolved, as far as it exists. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.join(real(path.dirname(p)), path.basename(p));
  }
}

const digest = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The bytes of a regular file (not a link, not too large), else null. */
function regularFile(file: string): Buffer | null {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_LOGIN_BYTES) return null;
    return readFileSync(file);
  } catch {
    return null;
  }
}

export interface AgentStateCopy {
  /** The copy to show at each of `paths` (real agent state folders and files), made on first use. */
  sourcesFor(paths: readonly string[]): Record<string, string>;
  /** Copies back the login files refreshed in the copy since it was made (or last copied back). */
  keepLogins(): void;
  /** Removes the copies. */
  remove(): void;
}

/**
 * `logins`: the credential files, as real paths inside the agent folders.
 * `home`: a folder that holds `$HOME` whole is never copied (an agent whose state is `$HOME` itself).
 */
export function createAgentStateCopy(loginFiles: readonly string[], home: string): AgentStateCopy {
  const logins = [...new Set(loginFiles.map(real))];
  let root: string | undefined;
  const copies = new Map<string, string>();
  /** What each login file held when last seen on both sides, by its real path. */
  const seen = new Map<string, string>();

  const copyOf = (shown: string): string | undefined => {
    if (!existsSync(shown)) return undefined;
    const folder = real(shown);
    if (isWithin(real(home), folder)) return undefined;
    const made = copies.get(folder);
    if (made) return made;
    if (!root) {
      root = mkdtempSync(path.join(os.tmpdir(), 'ralph-agent-state-'));
      // It holds the agent's login: gone with the run.
      process.once('exit', remove);
    }
    const copy = path.join(root, String(copies.size));
    cpSync(folder, copy, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (from) => path.dirname(from) !== folder || !LEFT_BEHIND.has(path.basename(from)),
    });
    copies.set(folder, copy);
    for (const login of logins) {
      const bytes = isWithin(login, folder) ? regularFile(login) : null;
      if (bytes) seen.set(login, digest(bytes));
    }
    return copy;
  };

  function remove(): void {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
    copies.clear();
  }

  const loginCopy = (login: string): string | undefined => {
    for (const [folder, copy] of copies) {
      if (isWithin(login, folder) && login !== folder) return path.join(copy, path.relative(folder, login));
    }
    return undefined;
  };

  return {
    sourcesFor(paths) {
      const sources: Record<string, string> = {};
      for (const p of paths) {
        const copy = copyOf(p);
        if (copy) sources[p] = copy;
      }
      return sources;
    },
    keepLogins() {
      for (const login of logins) {
        const inCopy = loginCopy(login);
        const bytes = inCopy ? regularFile(inCopy) : null;
        if (!bytes || seen.get(login) === digest(bytes)) continue;
        // Beside the real file, then renamed over it: never written through whatever is at the path.
        mkdirSync(path.dirname(login), { recursive: true });
        const temp = `${login}.ralph-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
        try {
          writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
          renameSync(temp, login);
          seen.set(login, digest(bytes));
        } catch {
          // The real folder is not writable (or went away): the next command's end tries again.
          rmSync(temp, { force: true });
        }
      }
    },
    remove,
  };
}
