/**
 * A hook that writes files (issue reproduction): `echo "$ITERATION
 * $STORY_ID" >> NOTES.md` after every iteration of a 3-story PRD, run by the
 * built `ralph run` with the real Claude Code against a scripted model. What
 * the hook writes is committed by ralph between iterations, so no attempt
 * ever sees it as its own uncommitted work, and no rollback deletes it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/state/event-log.js';
import {
  createLoopProject,
  type LoopProject,
  THREE_STORY_PLAN as PLAN,
  prdJson,
  THREE_STORIES as THREE,
} from '../support/loop-project.js';

const LINES = ['1 US-001', '2 US-002', '3 US-003'];

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe.each([
  { how: 'sequential', parallel: false, args: ['--no-worktree'], ref: 'HEAD' },
  { how: 'parallel', parallel: true, args: [], ref: 'ralph/demo' },
])('a $how hook that writes NOTES.md', ({ parallel, args, ref }) => {
  it('keeps every line it writes in git history, and every story passes on its first attempt', async () => {
    const config = [
      'hooks:',
      '  - id: notes',
      `    run: echo "$ITERATION $STORY_ID" >> NOTES.md`,
      `    parallel: ${parallel}`,
      '',
    ].join('\n');
    project = await createLoopProject(
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/config.yaml': config,
        '.ralph/prds/demo/prd.json': prdJson(THREE),
      },
      PLAN,
    );
    const result = await project.run(['demo', '--headless', ...args]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);

    // Every story passed once: three passes, each on attempt 1, and no failed attempt.
    const events = (await readEvents(join(project.repo.dir, '.ralph/runs/demo/events.jsonl'))) as {
      type: string;
      storyId?: string;
      attempt?: number;
    }[];
    expect(events.filter((e) => e.type === 'story-passed').map((e) => [e.storyId, e.attempt])).toEqual([
      ['US-001', 1],
      ['US-002', 1],
      ['US-003', 1],
    ]);
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    const subjects = (await project.repo.git('log', '--format=%s', ref)).split('\n').reverse();
    expect(subjects.filter((s) => s.startsWith('feat:'))).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
      'feat: US-003 - Add shout',
    ]);

    // Every hook line is in the branch's history, each in a commit of ralph's own after its iteration.
    const added = (await project.repo.git('log', '-p', '--format=', ref, '--', 'NOTES.md'))
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l) => l.slice(1));
    expect(added.sort()).toEqual(LINES);
    expect(subjects.filter((s) => s.startsWith('chore(ralph): hook'))).toEqual(
      [1, 2, 3].map((n) => `chore(ralph): hook notes after iteration ${n}`),
    );
    expect(await project.repo.git('show', `${ref}:NOTES.md`)).toBe(LINES.join('\n'));

    // Nothing left behind: the checkout is clean, and no hook checkout remains.
    const checkout = ref === 'HEAD' ? project.repo.dir : join(project.repo.dir, '.ralph/worktrees/demo');
    expect(await project.repo.git('-C', checkout, 'status', '--porcelain')).toBe('');
    expect(await project.repo.git('worktree', 'list', '--porcelain')).not.toContain('checkouts');
    const tasks = await readFile(join(project.repo.dir, '.ralph/runs/demo/hooks/tasks.jsonl'), 'utf8');
    expect(tasks).not.toContain('"status":"failed"');
  });
});
