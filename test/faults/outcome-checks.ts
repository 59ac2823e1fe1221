/**
 * What must hold after a fault cycle's last run, however ralph was killed
 * before: every story landed exactly once, nothing unverified on the branch,
 * no process left, no stray file in git, the records agree.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoopProject } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import type { CliResult } from '../support/ralph-cli.js';
import { PARALLEL_STORIES, STORIES, temporariesUnder, type WorkspaceMode } from './campaign-project.js';

/** Every path a commit of the project may hold. */
const ALLOWED = new Set([
  'README.md',
  '.ralph/.gitignore',
  '.ralph/config.yaml',
  '.ralph/prds/demo/prd.json',
  '.ralph/prds/demo/progress.md',
  ...STORIES.map((s) => s.file),
]);

/** ralph's own commits that record no story: tracking the task files, copying them into a worktree. */
const BOOKKEEPING = /^chore\(ralph\): (track demo task files|add demo task file)$/;

export async function checkOutcome(
  project: LoopProject,
  mode: WorkspaceMode,
  final: CliResult,
  eventsBefore: number,
): Promise<string[]> {
  const violations: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) violations.push(what);
  };
  const { repo } = project;
  const cwd = mode === 'in-place' ? repo.dir : join(repo.dir, '.ralph/worktrees/demo');
  const git = async (...args: string[]) => (await repo.git('-C', cwd, ...args)).trim();

  expect(
    final.exitCode === 0,
    `the last run exited ${final.exitCode} (${final.stderr.trim().split('\n')[0]})`,
  );
  expect(final.stderr === '', `the last run wrote to stderr: ${final.stderr.trim().split('\n')[0]}`);

  // Each story's feat commit, then at once its pass record: nothing else, nothing twice, nothing unverified.
  const subjects = (await git('log', '--reverse', '--format=%s')).split('\n').slice(1);
  const recorded = subjects.filter((s) => !BOOKKEEPING.test(s));
  if (mode === 'parallel') {
    violations.push(...(await parallelHistory(project, recorded)));
  } else {
    const expected = STORIES.flatMap((s) => [`feat: ${s.id} - ${s.title}`, `chore(ralph): ${s.id} passed`]);
    expect(
      JSON.stringify(recorded) === JSON.stringify(expected),
      `history is not each story's commit followed by its pass record: ${JSON.stringify(recorded)}`,
    );
  }
  const stories: readonly { id: string }[] = mode === 'parallel' ? PARALLEL_STORIES : STORIES;

  // No stray file in any commit, on any ref; nothing left over in the work trees.
  const everCommitted = new Set((await repo.git('log', '--all', '--name-only', '--format=')).split('\n'));
  const allowed = mode === 'parallel' ? PARALLEL_ALLOWED : ALLOWED;
  const stray = [...everCommitted].filter((p) => p !== '' && !allowed.has(p));
  expect(stray.length === 0, `stray files committed: ${stray.join(', ')}`);
  const status = await git('status', '--porcelain', '--untracked-files=all');
  expect(status === '', `the work tree is not clean: ${status.replace(/\n/g, '; ')}`);
  if (mode !== 'in-place') {
    const main = await repo.git('status', '--porcelain', '--untracked-files=all');
    expect(main === '', `the main checkout is not clean: ${main.replace(/\n/g, '; ')}`);
    const head = await repo.git('log', '--format=%s', 'main');
    expect(head === 'chore: initial commit', `main moved: ${head.replace(/\n/g, '; ')}`);
  }
  const temporaries = await temporariesUnder(repo.dir);
  expect(temporaries.length === 0, `temporary files left: ${temporaries.join(', ')}`);

  // The task file, the progress file and the run state agree: each story passed, once.
  const prd = JSON.parse(await readFile(join(cwd, '.ralph/prds/demo/prd.json'), 'utf8')) as {
    userStories: { id: string; passes: boolean }[];
  };
  const open = prd.userStories.filter((s) => !s.passes).map((s) => s.id);
  expect(open.length === 0, `not marked as passed in prd.json: ${open.join(', ')}`);
  const progress = await readFile(join(cwd, '.ralph/prds/demo/progress.md'), 'utf8').catch(() => '');
  for (const { id } of stories) {
    const entries = progress
      .split('\n')
      .filter((l) => l.startsWith('## ') && l.includes(` - ${id}: `)).length;
    expect(entries === 1, `${id} has ${entries} progress entries`);
  }
  const state = JSON.parse(await readFile(join(repo.dir, '.ralph/runs/demo/state.json'), 'utf8')) as {
    current: unknown;
    running?: unknown[];
    integrating?: unknown;
    resolving?: unknown;
    stories: Record<string, { passedAt?: string; parked?: boolean }>;
  };
  expect(state.current === null, 'the run state still has an attempt in flight');
  for (const { id } of stories) {
    expect(state.stories[id]?.passedAt !== undefined, `${id} has no pass in the run state`);
  }
  for (const field of ['running', 'integrating', 'resolving'] as const) {
    const left = state[field];
    expect(
      left === undefined || (Array.isArray(left) && left.length === 0),
      `the run state still has ${field}`,
    );
  }
  const finished = (await readFile(join(repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .slice(eventsBefore)
    .map((l) => JSON.parse(l) as { type: string; passed?: number });
  const last = finished.at(-1);
  expect(
    last?.type === 'run-finished' && last.passed === stories.length,
    `the last run did not finish with ${stories.length}/${stories.length} passed`,
  );

  // No process of any run left behind (the last run's agent exits with it; earlier ones were stopped on resume).
  let left = processesIn(repo.dir);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await sleep(50);
    left = processesIn(repo.dir);
  }
  expect(left.length === 0, `processes left: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`);
  return violations;
}

/** Every path a commit of the parallel cycles' project may hold. */
const PARALLEL_ALLOWED = new Set([
  'README.md',
  'REGISTRY.md',
  '.ralph/.gitignore',
  '.ralph/config.yaml',
  '.ralph/prds/demo/prd.json',
  '.ralph/prds/demo/progress.md',
  ...PARALLEL_STORIES.map((s) => `${s.id}.txt`),
]);

/**
 * A parallel run lands stories in the order they win: each story's feat
 * commit, then at once its pass record, each story once; every story's
 * registry line once; and no commit the PRD branch ever pointed at (every
 * reflog tip) holds a conflict marker. No story branch or worktree is left.
 */
async function parallelHistory(project: LoopProject, recorded: readonly string[]): Promise<string[]> {
  const violations: string[] = [];
  const { repo } = project;
  const pairs: string[] = [];
  for (let i = 0; i < recorded.length; i += 2) {
    const id = /^feat: (\S+) - /.exec(recorded[i] ?? '')?.[1];
    if (id === undefined || recorded[i + 1] !== `chore(ralph): ${id} passed`) {
      violations.push(
        `history is not each story's commit followed by its pass record: ${JSON.stringify(recorded)}`,
      );
      return violations;
    }
    pairs.push(id);
  }
  const ids = PARALLEL_STORIES.map((s) => s.id);
  if (JSON.stringify([...pairs].sort()) !== JSON.stringify([...ids].sort())) {
    violations.push(`stories landed: ${pairs.join(', ')}; expected each of ${ids.join(', ')} once`);
  }
  const registry = (await repo.git('show', 'ralph/demo:REGISTRY.md')).split('\n');
  for (const id of ids) {
    const n = registry.filter((l) => l === `- ${id}`).length;
    if (n !== 1) violations.push(`${id}'s registry line is there ${n} times`);
  }
  const tips = (await repo.git('reflog', 'show', '--format=%H', 'ralph/demo')).split('\n');
  const commits = (await repo.git('rev-list', 'main..ralph/demo')).split('\n');
  for (const sha of new Set([...tips, ...commits])) {
    const found = await repo.git('grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)', sha).catch(() => '');
    if (found !== '')
      violations.push(`conflict markers at ${sha.slice(0, 7)} in ${found.replace(/\n/g, ', ')}`);
  }
  const branches = await repo.git('branch', '--list', 'ralph-stories/*');
  if (branches !== '') violations.push(`story branches left: ${branches.replace(/\s+/g, ' ')}`);
  const worktrees = (await repo.git('worktree', 'list', '--porcelain'))
    .split('\n')
    .filter((l) => l.startsWith('worktree '));
  if (worktrees.length !== 2) violations.push(`worktrees left: ${worktrees.join('; ')}`);
  return violations;
}
