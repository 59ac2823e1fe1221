import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { wantsGithub } from '../../app/command-options.js';
import { readForNextRun } from '../../app/task-context.js';
import { ExitCode } from '../../core/errors.js';
import type { GoalMode } from '../../core/goal-types.js';
import type { Prd } from '../../core/types.js';
import { visibleLine } from '../../core/visible-text.js';
import { listRalphWorktrees, type RalphWorktree } from '../../git/ralph-worktrees.js';
import { isGoalRun, listGoalRuns } from '../../goal/goal-runs.js';
import type { GoalRunState } from '../../goal/goal-summary.js';
import { isValidPrdName, runDir, runPaths, worktreesDir } from '../../state/layout.js';
import { locateProject } from '../../state/project-root.js';
import { listPrdFolders, resolveTarget } from '../../state/resolve-target.js';
import { firstLine } from '../format.js';
import { openCommandTarget } from '../open-source-target.js';
import { print, printJson } from '../output.js';
import type { SourceFlags } from './source-options.js';

interface ListedPrd {
  kind: 'prd';
  name: string;
  title: string | null;
  done: number;
  total: number;
  errors: number;
  /** The PRD's worktree, when it has one. */
  worktree: { path: string; branch: string | null } | null;
  /** `github`: the stories are a label's open issues (`--source github`). */
  source?: 'github';
}

interface ListedGoal {
  kind: 'goal';
  name: string;
  /** The goal's first line. */
  title: string;
  /** Steps completed, of the steps made so far. */
  done: number;
  total: number;
  /** `invalid`: its PROGRESS.yaml does not read (`ralph status <name>` says where). */
  state: GoalRunState | 'invalid';
  mode: GoalMode | null;
  worktree: { path: string; branch: string | null } | null;
}

interface Orphan {
  name: string;
  path: string;
  branch: string | null;
  reason: string;
}

export async function listCommand(opts: { json?: boolean } & SourceFlags): Promise<number> {
  const { root, inGit } = await locateProject(process.cwd());
  // `--source github`: the label's issues are listed too, read from GitHub first (a bad token stops here).
  const github = wantsGithub(opts) ? await openCommandTarget(undefined, opts, { knownRoot: root }) : null;
  // git lists the worktrees while the task files are read.
  const listing = inGit ? listRalphWorktrees(root, worktreesDir(root)) : Promise.resolve([]);
  // A failure surfaces where it is awaited, not as an unhandled rejection meanwhile.
  listing.catch(() => undefined);
  // Every PRD folder, ralph's and Chief's, those without a task file too (listed as invalid).
  const names = await listPrdFolders(root, false);
  const read: Omit<ListedPrd, 'worktree'>[] = [];
  for (const name of names) read.push(await describe(root, name));
  const worktrees = await listing;
  if (github) read.push({ ...describePrd(github.target.name, github.prd), source: 'github' });
  const rows = read.map((row): ListedPrd => ({ ...row, worktree: worktreeOf(row.name, worktrees) }));
  const goals: ListedGoal[] = [];
  for (const name of await listGoalRuns(root)) {
    if (!names.includes(name)) goals.push(await describeGoal(root, name));
  }
  const orphans = worktrees.flatMap((w) => orphanOf(root, w, names));

  if (opts.json) {
    // Orphans are listed in the text output only, so the JSON stays one row per PRD or goal run.
    printJson([...rows, ...goals]);
    return ExitCode.Success;
  }
  if (rows.length === 0 && goals.length === 0) {
    print('no PRDs in .ralph/prds or .chief/prds (create one with `ralph new`, or see `ralph init`)');
  } else if (rows.length > 0) {
    const width = Math.max(...rows.map((r) => r.name.length));
    for (const r of rows) {
      const progress =
        r.errors > 0 ? `invalid (${r.errors} error${r.errors === 1 ? '' : 's'})` : `${r.done}/${r.total}`;
      const where = r.worktree ? `  [worktree on ${r.worktree.branch ?? 'a detached HEAD'}]` : '';
      print(`${r.name.padEnd(width)}  ${progress.padEnd(7)}  ${visibleLine(r.title ?? '')}${where}`);
    }
  }
  if (goals.length > 0) printGoals(goals, rows.length > 0);
  if (orphans.length > 0) {
    print();
    print('orphaned worktrees (remove with `ralph clean <name>`):');
    for (const o of orphans) {
      print(`  ${o.name}  ${relative(root, o.path) || o.path}  ${o.branch ?? '-'}  (${o.reason})`);
    }
  }
  return ExitCode.Success;
}

/**
 * A worktree nobody will run again: its folder is gone, git does not know
 * it, or no PRD and no run of that name exists.
 */
function orphanOf(root: string, w: RalphWorktree, names: readonly string[]): Orphan[] {
  const orphan = (reason: string): Orphan[] => [{ name: w.name, path: w.path, branch: w.branch, reason }];
  if (!w.present) return orphan('folder missing; `git worktree prune` forgets it');
  if (!w.registered) return orphan('not a registered git worktree');
  const known =
    names.includes(w.name) ||
    (isValidPrdName(w.name) && existsSync(runPaths(root, w.name).state)) ||
    isGoalRun(root, w.name);
  return known ? [] : orphan('no PRD of that name');
}

function worktreeOf(name: string, worktrees: readonly RalphWorktree[]): ListedPrd['worktree'] {
  const w = worktrees.find((x) => x.name === name && x.registered && x.present);
  return w ? { path: w.path, branch: w.branch } : null;
}

async function describe(root: string, name: string): Promise<Omit<ListedPrd, 'worktree'>> {
  try {
    const target = await resolveTarget(root, name);
    const result = await readForNextRun(root, target);
    if (!result.ok) {
      return { kind: 'prd', name, title: null, done: 0, total: 0, errors: result.issues.length };
    }
    return describePrd(name, result.prd);
  } catch {
    // A PRD folder without a task file: listed, so the user sees it.
    return { kind: 'prd', name, title: null, done: 0, total: 0, errors: 1 };
  }
}

function describePrd(name: string, prd: Prd): Omit<ListedPrd, 'worktree'> {
  return {
    kind: 'prd',
    name,
    title: prd.project,
    done: prd.stories.filter((s) => s.status === 'done').length,
    total: prd.stories.length,
    errors: 0,
  };
}

async function describeGoal(root: string, name: string): Promise<ListedGoal> {
  // A goal run's reader (YAML, zod) loads only for a project that has one.
  const { readGoalRun } = await import('../goal-target.js');
  const view = await readGoalRun({ root, name, runDir: runDir(root, name) }).catch(() => null);
  if (view === null) {
    return { kind: 'goal', name, title: '', done: 0, total: 0, state: 'invalid', mode: null, worktree: null };
  }
  const { summary, worktree } = view;
  return {
    kind: 'goal',
    name,
    title: firstLine(summary.goal),
    done: summary.done,
    total: summary.total,
    state: summary.state,
    mode: summary.mode,
    worktree,
  };
}

function printGoals(goals: readonly ListedGoal[], afterPrds: boolean): void {
  if (afterPrds) print();
  print('goal runs:');
  const width = Math.max(...goals.map((g) => g.name.length));
  for (const g of goals) {
    const steps = `${g.done}/${g.total} steps`;
    const state = g.state === 'running' && g.mode ? `running (${g.mode})` : g.state;
    const where = g.worktree ? `  [worktree on ${g.worktree.branch ?? 'a detached HEAD'}]` : '';
    print(
      `  ${g.name.padEnd(width)}  ${steps.padEnd(11)}  ${state.padEnd(11)}  ${visibleLine(g.title)}${where}`,
    );
  }
}
