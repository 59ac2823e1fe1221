/** What a run name is already used for in a project. */
export type NameUse =
  | { kind: 'free' }
  /** A PRD (`.ralph/prds/<name>/`) or a PRD's run (`.ralph/runs/<name>/state.json`). */
  | { kind: 'prd' }
  /** A goal run; `goal` is its goal text, undefined when its progress file cannot be read. */
  | { kind: 'goal'; goal?: string };

export type NameChoice = { ok: true; name: string } | { ok: false; reason: string };

/** Enough for any project; past it, the user is asked for a name. */
const MAX_SUFFIX = 99;

/**
 * The run name a goal gets. A goal run shares its name with its run folder,
 * its worktree and its branch `ralph/<name>`, so it can never take a PRD's
 * name. A name derived from the goal text (`derived`) resumes the goal run
 * of that name when it has the same goal, and otherwise moves on to
 * `<name>-2`, `<name>-3`, ...; a name the user gave (`--name`, the goal
 * file's) is the run they mean, edited goal or not, unless a PRD has it.
 */
export function chooseGoalRunName(
  candidate: string,
  goal: string,
  derived: boolean,
  whatUses: (name: string) => NameUse,
): NameChoice {
  if (!derived) {
    return whatUses(candidate).kind === 'prd'
      ? {
          ok: false,
          reason: `${candidate} is the name of a PRD here; a goal run needs a name of its own (its run folder, worktree and branch ralph/${candidate} would be the PRD's)`,
        }
      : { ok: true, name: candidate };
  }
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const name = n === 1 ? candidate : `${candidate}-${n}`;
    const use = whatUses(name);
    if (use.kind === 'free') return { ok: true, name };
    if (use.kind === 'goal' && use.goal !== undefined && use.goal.trim() === goal.trim()) {
      return { ok: true, name };
    }
  }
  return { ok: false, reason: `every name from ${candidate} to ${candidate}-${MAX_SUFFIX} is taken` };
}
