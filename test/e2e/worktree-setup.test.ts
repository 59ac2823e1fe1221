/**
 * A worktree setup command that writes files (`npm install` rewriting the
 * lock file, a build writing its output folder) makes the worktree's
 * environment, not work: the run starts, the agent's `git add -A` leaves it
 * out, a rollback keeps it, and ralph never commits it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const SETUP = [
  // A real `npm install` rewrites the tracked lock file (an old format); a build writes a folder; a cache file.
  'npm install --no-audit --no-fund --offline --loglevel=error',
  'mkdir -p build && echo compiled > build/app.js',
  'echo warm > .setup-cache',
].join('\n');
const OLD_LOCK = '{\n  "name": "demo",\n  "version": "1.0.0",\n  "lockfileVersion": 1\n}\n';
const CHECK = 'grep -q hello greet.txt && exit 0\necho "greet.txt holds $(cat greet.txt)"\nexit 1\n';
const ENVIRONMENT = ['package-lock.json', 'build/', '.setup-cache'];

describe('worktree setup output', () => {
  it('never blocks the start, is never committed, survives a rollback and stays out of git add -A', async () => {
    project = await createLoopProject(
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/config.yaml': 'worktree:\n  setup: "sh setup.sh"\nchecks:\n  - "sh check.sh"\n',
        '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
        'package.json': '{ "name": "demo", "version": "1.0.0", "private": true }\n',
        'package-lock.json': OLD_LOCK,
        'setup.sh': `${SETUP}\n`,
        'check.sh': CHECK,
      },
      {
        // The first attempt commits with `git add -A` and fails its gate: it is rolled back.
        'US-001': [
          implement('US-001', 'Add greeting', 'greet.txt', 'goodbye\n'),
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
      },
    );
    const { repo } = project;
    const result = await project.run(['demo', '--headless']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(project.stories.prompts('US-001')).toHaveLength(2);

    // Nothing setup made was ever committed, by the agent or by ralph.
    const committed = (await repo.git('log', '--name-only', '--format=', 'main..ralph/demo')).split('\n');
    expect(committed).toContain('greet.txt');
    for (const path of ['package-lock.json', 'build/app.js', '.setup-cache']) {
      expect(committed).not.toContain(path);
    }

    // Setup's output is still there after the rollback, and the worktree reads as clean.
    const worktree = join(repo.dir, '.ralph', 'worktrees', 'demo');
    expect(await readFile(join(worktree, 'package-lock.json'), 'utf8')).toContain('"lockfileVersion": 3');
    expect(await readFile(join(worktree, 'build', 'app.js'), 'utf8')).toBe('compiled\n');
    expect(existsSync(join(worktree, '.setup-cache'))).toBe(true);
    expect(await repo.git('-C', worktree, 'status', '--porcelain')).toBe('');

    // The agent was told what its environment holds.
    for (const prompt of project.stories.prompts('US-001')) {
      for (const path of ENVIRONMENT) expect(prompt).toContain(path);
    }

    // Hidden in that worktree only: the main checkout still sees a build/ of its own.
    await repo.write('build/mine.js', 'x\n');
    expect(await repo.git('status', '--porcelain')).toBe('?? build/');

    // Setup output does not hold up `ralph clean` either, and clean forgets the worktree's git settings.
    const cleaned = await runRalph(['clean', 'demo'], { cwd: repo.dir });
    expect(cleaned.stderr).toBe('');
    expect(cleaned.exitCode).toBe(0);
    expect(existsSync(worktree)).toBe(false);
    expect(await repo.git('config', '--local', '--list')).not.toMatch(/includeif/i);
  });
});
