/**
 * The worktree flow end to end: `ralph run` puts a PRD in its own worktree on
 * `ralph/<name>`, the real Claude Code commits there (scripted model), the
 * branch is pushed to a local bare `origin` and a pull request is opened with
 * a recording `gh`; then `ralph merge` and `ralph clean` finish the job. The
 * main checkout is untouched until the merge.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGh, FAKE_PR_URL, type FakeGh } from '../support/fake-gh.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
];

let project: LoopProject | undefined;
let gh: FakeGh | undefined;
let origin = '';
afterEach(async () => {
  await project?.cleanup();
  await gh?.cleanup();
  if (origin) await removeTempDir(origin);
  project = undefined;
  gh = undefined;
  origin = '';
});

describe('ralph run in a worktree', () => {
  it('commits on ralph/<name> only, pushes, opens a PR; merge and clean finish it', async () => {
    project = await createLoopProject(
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/prds/demo/prd.json': prdJson(TWO),
      },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const repo = project.repo;
    origin = await makeTempDir('origin');
    await repo.git('init', '-q', '--bare', origin);
    await repo.git('remote', 'add', 'origin', origin);
    gh = await createFakeGh();
    const mainHead = await repo.head();

    const result = await project.run(['demo', '--headless', '--push', '--pr'], {
      env: { PATH: gh.env(project.claude.env).PATH },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(FAKE_PR_URL);

    // The work is on the PRD branch, in its worktree.
    const worktree = join(repo.dir, '.ralph', 'worktrees', 'demo');
    const log = (await repo.git('log', '--format=%s', 'main..ralph/demo')).split('\n');
    expect(log.filter((s) => s.startsWith('feat:')).reverse()).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
    expect(await readFile(join(worktree, 'greet.txt'), 'utf8')).toBe('hello\n');
    const live = JSON.parse(await readFile(join(worktree, '.ralph/prds/demo/prd.json'), 'utf8')) as {
      userStories: { passes: boolean }[];
    };
    expect(live.userStories.map((s) => s.passes)).toEqual([true, true]);

    // The main checkout is untouched: same commit, clean tree, no story files, PRD as written.
    expect(await repo.head()).toBe(mainHead);
    expect(await repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await repo.git('status', '--porcelain')).toBe('');
    expect(existsSync(join(repo.dir, 'greet.txt'))).toBe(false);
    expect(await project.read('.ralph/prds/demo/prd.json')).toBe(prdJson(TWO));
    // ...yet status there reads the worktree's live copy.
    const status = JSON.parse((await runRalph(['status', 'demo', '--json'], { cwd: repo.dir })).stdout) as {
      done: number;
    };
    expect(status.done).toBe(2);

    // Pushed, and the pull request asked for with exactly these arguments.
    expect(await repo.git('--git-dir', origin, 'rev-parse', 'refs/heads/ralph/demo')).toBe(
      await repo.git('rev-parse', 'ralph/demo'),
    );
    const calls = await gh.calls();
    expect(calls).toHaveLength(1);
    const args = calls[0]?.args ?? [];
    expect(args.slice(0, 5)).toEqual(['pr', 'create', '--title', 'feat(demo): Demo', '--body']);
    expect(args.slice(6)).toEqual(['--head', 'ralph/demo', '--base', 'main']);
    expect(args[5]).toMatch(/\| US-001 \| Add greeting \| 1 \| \$\d+\.\d{2,} \|/);
    expect(args[5]).toMatch(/\| US-002 \| Add farewell \| 1 \| \$\d+\.\d{2,} \|/);
    expect(calls[0]?.cwd).toBe(worktree);

    // Merge back into main, then remove the worktree and the branch.
    const merged = await runRalph(['merge', 'demo'], { cwd: repo.dir });
    expect(merged.exitCode).toBe(0);
    expect(await readFile(join(repo.dir, 'greet.txt'), 'utf8')).toBe('hello\n');
    expect((await repo.git('rev-list', '--parents', '-n', '1', 'HEAD')).split(' ')).toHaveLength(3);
    const cleaned = await runRalph(['clean', 'demo', '--delete-branch'], { cwd: repo.dir });
    expect(cleaned.exitCode).toBe(0);
    expect(existsSync(worktree)).toBe(false);
    expect(await repo.git('branch', '--list', 'ralph/demo')).toBe('');
  });
});
