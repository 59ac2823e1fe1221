/**
 * A done count the page has shown never goes backwards unless a story really
 * was reopened. The task file is read from a checkout that git rewrites
 * while it lands a story (a rebase, a restore, files removed and written
 * again), and a read can fall between; a read that also fails to parse, or
 * finds the worktree's copy missing for a moment, says less than is true.
 * So a story shown done that a read shows not done stays shown done until
 * the reads have said so for `confirmMs`: a real reopening (the task file
 * edited) is shown a moment late, a passing glitch never. Pure.
 */
import type { ItemView, RunView } from './view.js';

export interface SteadyMemory {
  /** The items last shown, by id, and the view they were shown in. */
  shown: RunView;
  /** Since when reads have shown fewer stories done than were shown, if they do. */
  fewerSince: number | null;
}

export const CONFIRM_REOPEN_MS = 2_000;

export function steadyView(
  view: RunView,
  memory: SteadyMemory | undefined,
  now: number,
  confirmMs = CONFIRM_REOPEN_MS,
): { view: RunView; memory: SteadyMemory } {
  if (memory === undefined) return { view, memory: { shown: view, fewerSince: null } };
  const wasDone = new Set(memory.shown.items.filter((i) => i.state === 'done').map((i) => i.id));
  const unreadable = view.items.length === 0 && view.error !== null && memory.shown.items.length > 0;
  const lost = unreadable
    ? [...wasDone]
    : view.items.filter((i) => wasDone.has(i.id) && i.state !== 'done').map((i) => i.id);
  const fewer = lost.length > 0 || (unreadable && memory.shown.done > 0);
  if (!fewer) return { view, memory: { shown: view, fewerSince: null } };
  const since = memory.fewerSince ?? now;
  if (now - since >= confirmMs) return { view, memory: { shown: view, fewerSince: null } };
  const held = unreadable ? heldUnreadable(view, memory.shown) : heldDone(view, new Set(lost), memory.shown);
  return { view: held, memory: { shown: held, fewerSince: since } };
}

/** The read's view with the stories it lost shown as they were. */
function heldDone(view: RunView, lost: ReadonlySet<string>, shown: RunView): RunView {
  const before = new Map(shown.items.map((i) => [i.id, i]));
  const items = view.items.map((i): ItemView => (lost.has(i.id) ? (before.get(i.id) ?? i) : i));
  return { ...view, items, done: items.filter((i) => i.state === 'done').length };
}

/** A read that found nothing: the stories as last shown, the rest (phase, detail) as now. */
function heldUnreadable(view: RunView, shown: RunView): RunView {
  return { ...view, items: shown.items, done: shown.done, total: shown.total, error: shown.error };
}
