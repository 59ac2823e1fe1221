/**
 * What a sandboxed command may see and change, decided from the facts of
 * where it runs. Pure: the facts (paths resolved, which files exist) come in;
 * bubblewrap's arguments (`bwrap-args.ts`) and sandbox-exec's profile
 * (`seatbelt-profile.ts`) are both rendered from this one plan, so the two
 * platforms keep the same rules.
 */
import path from 'node:path';
import { protectionRemoved } from './protections.js';

/** `host`: the user's network (the agent must reach its API); `none`: no network at all. */
export type SandboxNetwork = 'host' | 'none';

/** A checkout's git directories, as git itself resolves them. */
export interface GitLayout {
  /** The checkout's own git directory: `.git`, or `<common>/worktrees/<name>` for a linked worktree. */
  gitDir: string;
  /** What every checkout of the repository shares: objects, refs, logs, config, hooks. */
  commonDir: string;
  /** Where git runs hooks from: `core.hooksPath`, else `<common>/hooks`. */
  hooksDir: string;
}

export interface SandboxFacts {
  /** The checkout the command works in: the one tree it may change. */
  checkout: string;
  /** null outside a git repository. */
  git: GitLayout | null;
  /** The project root, whose `.ralph/runs` and `.ralph/worktrees` are ralph's own files. */
  root: string;
  home: string;
  /** A private, empty, writable temporary directory (bubblewrap: a fresh /tmp). */
  scratch: string;
  /** The agents' own state directories and files (`~/.claude`, `CODEX_HOME`, ...): writable. */
  agentPaths: readonly string[];
  /**
   * What each agent path is shown from, when not itself: the run's copy of
   * it, so what the agent writes there never reaches the real one (bubblewrap
   * only; sandbox-exec cannot show one path at another).
   */
  agentSources?: Readonly<Record<string, string>>;
  /** What the command needs to run and may read: the agents' installs, Node, git config, `sandbox.allowRead`. */
  readPaths: readonly string[];
  /** `sandbox.allowWrite`. */
  writePaths: readonly string[];
  /** Sockets and directories that carry the user's authority (ssh-agent, a container daemon): unreachable. */
  masks: readonly Mask[];
  network: SandboxNetwork;
}

export interface Mask {
  path: string;
  kind: 'dir' | 'file';
}

export interface SandboxPlan {
  /** Directories shown empty and read-only: `$HOME`. */
  hidden: string[];
  scratch: string;
  /** Shown read-only inside the hidden directories. */
  readOnly: string[];
  writable: string[];
  /** A writable path shown from another (an agent's state from the run's copy of it); else itself. */
  sources: Record<string, string>;
  /**
   * Read-only inside the writable paths whatever else says: what would let
   * the command run code outside the sandbox later (git hooks, git config),
   * or change ralph's own record.
   */
  protected: string[];
  masked: Mask[];
  /**
   * Writable git directories that must stay where they are: moved aside and
   * replaced, they could bring a config of the command's choosing.
   * (bubblewrap binds each on itself, which already pins it.)
   */
  pinned: string[];
  network: SandboxNetwork;
}

/** `child` is `parent` or inside it. */
export function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const unique = (paths: readonly string[]): string[] => [...new Set(paths.map((p) => path.resolve(p)))];

/**
 * In the git directories, what a command able to write there could use to
 * make git run code or read a repository of its choosing when ralph or the
 * user next runs git in this checkout, outside the sandbox.
 */
function gitProtections(git: GitLayout, checkout: string): string[] {
  const { gitDir, commonDir } = git;
  const own = [
    path.join(gitDir, 'config.worktree'),
    // Written by ralph for a worktree's setup output and included from the shared config.
    path.join(gitDir, 'ralph.gitconfig'),
    path.join(gitDir, 'ralph-exclude'),
  ];
  const main =
    gitDir === commonDir
      ? [
          path.join(commonDir, 'config'),
          path.join(commonDir, 'info'),
          // Other checkouts' git directories and submodules' repositories: their config and pointers.
          path.join(commonDir, 'worktrees'),
          path.join(commonDir, 'modules'),
        ]
      : [path.join(gitDir, 'commondir'), path.join(gitDir, 'gitdir')];
  // A linked worktree's `.git` is a file naming its git directory: rewritten, it could name any.
  const gitFile = path.join(checkout, '.git');
  const pointer = gitDir === gitFile ? [] : [gitFile];
  return [git.hooksDir, ...main, ...own, ...pointer];
}

/** Where a linked checkout commits: the shared objects, refs and reflogs, and its own index and HEAD. */
function gitWritable(git: GitLayout): string[] {
  // The main checkout's git directory is written whole (its index and HEAD are renamed into place there);
  // bound on itself, it cannot be moved aside and replaced.
  if (git.gitDir === git.commonDir) return [git.gitDir];
  return [
    path.join(git.commonDir, 'objects'),
    path.join(git.commonDir, 'refs'),
    path.join(git.commonDir, 'logs'),
    git.gitDir,
  ];
}

export function planSandbox(facts: SandboxFacts, exists: (p: string) => boolean): SandboxPlan {
  const git = facts.git;
  // In place (`--no-worktree`) the checkout holds ralph's own folder: pinned, it cannot be moved aside
  // and replaced by a copy whose run records (`runs/`, protected below) the command could then write.
  const ralphFolder = path.join(facts.root, '.ralph');
  const ownFolder =
    isWithin(ralphFolder, facts.checkout) && !protectionRemoved('run-folder') ? [ralphFolder] : [];
  const pinned = unique([...(git ? gitWritable(git) : []), ...ownFolder]).filter(exists);
  const writable = unique([facts.checkout, ...pinned, ...facts.agentPaths, ...facts.writePaths]);
  const commonShown = git && git.gitDir !== git.commonDir ? [git.commonDir] : [];
  // $HOME is hidden unless what is shown covers it all (an agent's state directory that is $HOME itself).
  const coveredBy = (paths: readonly string[]) => (p: string) => paths.some((s) => isWithin(p, s));
  const hidden = unique([facts.home])
    .filter(exists)
    .filter((h) => !coveredBy([...writable, ...commonShown, ...facts.readPaths])(h));
  const insideHidden = coveredBy([...hidden, facts.scratch]);
  const readOnly = unique([...commonShown, ...facts.readPaths]).filter(
    (p) => insideHidden(p) && !writable.includes(p),
  );
  const ralphOwn = [path.join(facts.root, '.ralph', 'runs'), path.join(facts.root, '.ralph', 'worktrees')];
  const candidates = [...(git ? gitProtections(git, facts.checkout) : []), ...ralphOwn];
  const isWritable = (p: string) => writable.some((w) => isWithin(p, w));
  // Protecting a folder that holds a path asked to be writable (allowWrite inside .ralph/runs) would undo that.
  const holdsWritable = (p: string) => writable.some((w) => w !== p && isWithin(w, p));
  const protectedPaths = unique(candidates).filter((p) => exists(p) && isWritable(p) && !holdsWritable(p));
  return {
    hidden,
    scratch: path.resolve(facts.scratch),
    readOnly,
    writable,
    sources: Object.fromEntries(
      Object.entries(facts.agentSources ?? {}).map(([shown, from]) => [
        path.resolve(shown),
        path.resolve(from),
      ]),
    ),
    protected: protectedPaths,
    masked: facts.masks.map((m) => ({ ...m, path: path.resolve(m.path) })),
    pinned,
    network: facts.network,
  };
}
