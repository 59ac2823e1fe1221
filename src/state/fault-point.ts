/**
 * Fault injection for the fault suite (test/faults): with
 * `RALPH_FAULT_AT=<point>` (or `<point>#<n>`), ralph kills itself with
 * SIGKILL the first (n-th) time it reaches the named point — exactly what a
 * `kill -9` at that moment does, but at a moment no outside timing can hit
 * (between an agent's spawn and its pid reaching the state, inside an atomic
 * write). Without the variable every point is a no-op.
 *
 * Points: `agent-spawned`, `agent-exited`, `pass-recording`, `pass-committed`,
 * `atomic-write:<file name>` (temp file written, not yet renamed); in a
 * parallel run also `story-checkout-made` (a story's worktree made, its
 * attempt not yet recorded), `story-verified` (the verdict on the story
 * branch, not yet in the run state), `landing-detached`, `landing-rebased`,
 * `landing-recorded` (the pass committed on the detached checkout),
 * `landing-moved` (the PRD branch moved, the checkout not yet re-attached),
 * `resolution-prepared` (a story that lost a race: its checkout detached at
 * the new tip with its work merged in, its agent not started) and
 * `resolution-verified` (the resolved work's verdict on the story branch,
 * not landed yet).
 */
const reached = new Map<string, number>();

export function faultPoint(name: string): void {
  const spec = process.env.RALPH_FAULT_AT;
  if (spec === undefined || spec === '') return;
  const hash = spec.lastIndexOf('#');
  const point = hash < 0 ? spec : spec.slice(0, hash);
  if (point !== name) return;
  const occurrence = hash < 0 ? 1 : Number(spec.slice(hash + 1));
  const count = (reached.get(name) ?? 0) + 1;
  reached.set(name, count);
  if (count === occurrence) process.kill(process.pid, 'SIGKILL');
}
