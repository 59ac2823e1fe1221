/**
 * Refs across an attempt: only the branch the attempt works on (and the
 * run's story branches, ralph's own `refs/ralph/`) may move while the agent
 * runs. Everything else it created, moved or deleted — the user's `main`, a
 * tag, the PRD branch behind the merge queue's back — is put back after the
 * attempt, and named. The sandbox cannot make refs read-only one by one (git
 * writes them all through the same folders), so this is checked outside it.
 */

import { protectionRemoved } from '../core/protections.js';
import { STORY_BRANCH_PREFIX } from '../core/story-ref.js';
import { git, runGit } from './git.js';

export interface RefSnapshot {
  /** refname → sha. */
  refs: Map<string, string>;
  /** The branch the checkout was on (`refs/heads/...`), which the attempt may move. */
  own: string | null;
}

/** A ref the attempt changed that it had no business changing, and what was done about it. */
export interface RefRestored {
  ref: string;
  /** What the agent left: null when it deleted the ref. */
  was: string | null;
  /** What it is again: null when the agent created it (then it is deleted). */
  now: string | null;
}

/**
 * Refs ralph itself moves while attempts run (the merge queue's PRD branch),
 * with where it last put them: their rightful place is there, not the snapshot's.
 */
const held = new Map<string, string>();

/** Records a move ralph made itself. */
export function noteOwnRefMove(ref: string, sha: string): void {
  held.set(ref, sha);
}

/**
 * Refs ralph is moving itself right now. git moves the ref before ralph hears
 * back, so between the two an attempt's check would see a move that is not yet
 * held and put the branch back under the landing: it leaves these alone.
 */
const moving = new Map<string, number>();

/** Runs `move` (which moves `ref` and records where, with `noteOwnRefMove`) as ralph's own move. */
export async function movingOwnRef<T>(ref: string, move: () => Promise<T>): Promise<T> {
  moving.set(ref, (moving.get(ref) ?? 0) + 1);
  try {
    return await move();
  } finally {
    const left = (moving.get(ref) ?? 1) - 1;
    if (left > 0) moving.set(ref, left);
    else moving.delete(ref);
  }
}

/**
 * Runs `work`, which moves the branch `cwd` has checked out (a hook's commit, a
 * fast-forward), as ralph's own move when the branch is held; then holds it there.
 */
export async function movingOwnBranch<T>(cwd: string, work: () => Promise<T>): Promise<T> {
  if (held.size === 0) return work();
  const ref = await git(['symbolic-ref', '--quiet', 'HEAD'], { cwd, allowFailure: true });
  if (ref === '' || !held.has(ref)) return work();
  return movingOwnRef(ref, async () => {
    const result = await work();
    await holdOwnRef(cwd, ref);
    return result;
  });
}

export async function snapshotRefs(cwd: string): Promise<RefSnapshot> {
  const out = await git(['for-each-ref', '--format=%(HEAD)%00%(refname)%00%(objectname)'], { cwd });
  const refs = new Map<string, string>();
  let own: string | null = null;
  for (const line of out.split('\n')) {
    const [head, ref, sha] = line.split('\0');
    if (!ref || !sha) continue;
    refs.set(ref, sha);
    if (head === '*') own = ref;
  }
  return { refs, own };
}

const mayMove = (ref: string, own: string | null): boolean =>
  ref === own || ref.startsWith(`refs/heads/${STORY_BRANCH_PREFIX}/`) || ref.startsWith('refs/ralph/');

/**
 * Puts back every ref the attempt had no business changing since `before`;
 * returns them. Each is moved only from the value just read, so a ref ralph
 * moves meanwhile is never overwritten.
 */
export async function restoreForeignRefs(cwd: string, before: RefSnapshot): Promise<RefRestored[]> {
  if (protectionRemoved('refs')) return [];
  const after = await snapshotRefs(cwd);
  const names = new Set([...before.refs.keys(), ...after.refs.keys()]);
  const restored: RefRestored[] = [];
  for (const ref of names) {
    if (mayMove(ref, before.own) || moving.has(ref)) continue;
    const was = after.refs.get(ref) ?? null;
    const rightful = held.get(ref) ?? before.refs.get(ref) ?? null;
    if (was === rightful) continue;
    const args =
      rightful === null
        ? ['update-ref', '-d', ref, was ?? '']
        : ['update-ref', '-m', 'ralph: put back', ref, rightful, was ?? ''];
    const done = await runGit(args, { cwd, allowFailure: true });
    if (done.exitCode === 0) restored.push({ ref, was, now: rightful });
  }
  return restored;
}

/** Takes `ref` where it is now as ralph's own, before any attempt runs. */
export async function holdOwnRef(cwd: string, ref: string): Promise<void> {
  const sha = await git(['rev-parse', '--verify', '--quiet', ref], { cwd, allowFailure: true });
  if (sha !== '') held.set(ref, sha);
}

/** Where ralph last put `ref` itself, if it moved it this run. */
export function heldRef(ref: string): string | undefined {
  return held.get(ref);
}
