/**
 * The sandbox under every runner, with the real Claude Code under the real
 * bubblewrap: `--parallel` (each story's worktree its own sandbox, the merge
 * queue's gates inside one too), a role job (`--worker`, with `sandbox:` in
 * the config), and a goal run. The gates here pass only where a write
 * outside the checkout is refused, so every one of them proves it ran
 * sandboxed; the agents try to reach what is not theirs.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commitFile, createGoalProject, type GoalProject, result } from '../support/goal-project.js';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { landedOrder, parallelProject, readEvents } from '../support/parallel-project.js';
import { createEngine, type Engine, git } from '../support/scale-out-engine.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

vi.setConfig({ testTimeout: 300_000 });

let outside = '';
let home = '';
let project: LoopProject | GoalProject | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.cleanup();
  await project?.cleanup();
  await rm(outside, { recursive: true, force: true });
  await removeTempDir(home);
  engine = undefined;
  project = undefined;
});

/** A directory outside every checkout (and outside /tmp, which the sandbox replaces): read-only inside. */
async function outsideDir(): Promise<string> {
  outside = await mkdtemp(join(existsSync('/var/tmp') ? '/var/tmp' : '/tmp', 'ralph-outside-'));
  home = await makeTempDir('sandbox-home');
  await mkdir(join(home, '.ssh'));
  await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE\n');
  return outside;
}

/** A gate that passes only inside the sandbox: outside it, the write succeeds and the gate fails. */
const sandboxedGate = (dir: string) => `! touch '${dir}/gate-probe' 2>/dev/null`;

/** An agent turn reaching for what is not its own; `|| true`: the story goes on either way. */
const reach = (targets: string[]): Turn => ({
  tool: 'Bash',
  input: {
    command: targets.map((t) => `(echo planted > '${t}') 2>/dev/null || true`).join('; '),
    description: 'look around',
  },
});

describe('ralph run --parallel --sandbox', () => {
  it('runs each story in a sandbox of its own worktree; the merge queue’s gates run sandboxed too', async () => {
    const dir = await outsideDir();
    const stories = [
      { id: 'A-1', title: 'Alpha one' },
      { id: 'B-1', title: 'Beta one' },
      { id: 'A-2', title: 'Alpha two', dependsOn: ['A-1'] },
    ];
    const turns: Record<string, Turn[][]> = {};
    const p = await parallelProject(prdJson(stories), turns, { gates: [sandboxedGate(dir)] });
    project = p;
    const prdWorktree = join(p.repo.dir, '.ralph', 'worktrees', 'demo');
    for (const s of stories) {
      turns[s.id] = [
        [
          // Each story's agent reaches for the main checkout, the PRD's worktree and the other stories' ones.
          reach([
            join(p.repo.dir, 'README.md'),
            join(prdWorktree, `stray-${s.id}.txt`),
            join(
              p.repo.dir,
              '.ralph',
              'runs',
              'demo',
              'stories',
              s.id === 'A-1' ? 'B-1' : 'A-1',
              'stray.txt',
            ),
            join(dir, `${s.id}.txt`),
          ]),
          ...implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`),
        ],
      ];
    }
    const run = await p.run(['demo', '--headless', '--parallel', '2', '--sandbox'], { env: { HOME: home } });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect([...(await landedOrder(p.repo, 'ralph/demo'))].sort()).toEqual(['A-1', 'A-2', 'B-1']);

    const events = await readEvents(p);
    expect(events.find((e) => e.type === 'run-started')).toMatchObject({ sandbox: 'bwrap' });
    const gates = events.filter((e) => e.type === 'check-finished');
    // Each story's gate in its worktree, and again on the merged result in the merge queue.
    expect(gates.filter((e) => e.worker === 'merge')).toHaveLength(3);
    expect(gates.filter((e) => typeof e.worker === 'number')).toHaveLength(3);
    for (const g of gates) expect(g.exitCode).toBe(0);

    expect(await readFile(join(p.repo.dir, 'README.md'), 'utf8')).toBe('# demo\n');
    for (const s of stories) {
      expect(existsSync(join(prdWorktree, `stray-${s.id}.txt`))).toBe(false);
      expect(existsSync(join(dir, `${s.id}.txt`))).toBe(false);
    }
    expect(await git(p.repo.dir, 'ls-tree', '-r', '--name-only', 'ralph/demo')).not.toContain('stray');
  });
});

describe('role jobs with sandbox: in the config', () => {
  it('a worker verifies and pushes its story from inside the sandbox, the agent cannot reach origin; integrate lands it', async () => {
    const dir = await outsideDir();
    const turns: Record<string, Turn[][]> = {};
    const p = await parallelProject(prdJson([{ id: 'A-1', title: 'Alpha one' }]), turns, {
      files: {
        '.ralph/config.yaml': `checks:\n  - ${JSON.stringify(sandboxedGate(dir))}\nsandbox:\n  enabled: true\n`,
      },
    });
    project = p;
    engine = await createEngine(p);
    const e = engine;
    turns['A-1'] = [
      [
        // The shared remote's hooks would run on every push to it.
        reach([join(e.origin, 'hooks', 'post-receive'), join(e.origin, 'config')]),
        ...implement('A-1', 'Alpha one', 'A-1.txt', 'A-1\n'),
      ],
    ];
    const originConfig = await readFile(join(e.origin, 'config'), 'utf8');
    const job = await e.startWorker('A-1');
    const done = await job.done;
    expect(done.stderr).toBe('');
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toMatch(/✓ A-1 verified \(attempt 1\) and pushed/);
    expect(await e.remoteRefs('refs/heads/ralph-stories/demo/A-1')).toHaveLength(1);
    expect(existsSync(join(e.origin, 'hooks', 'post-receive'))).toBe(false);
    expect(await readFile(join(e.origin, 'config'), 'utf8')).toBe(originConfig);
    const events = (await readFile(join(job.dir, '.ralph', 'runs', 'demo', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; exitCode?: number });
    const gates = events.filter((ev) => ev.type === 'check-finished');
    expect(gates.length).toBeGreaterThan(0);
    for (const g of gates) expect(g.exitCode).toBe(0);

    // The integrator reruns the gate on the merged result: inside the sandbox too, or it would fail.
    const { result: integrated, outcome } = await e.integrate();
    expect(integrated.exitCode).toBe(0);
    expect(outcome.landed).toEqual(['A-1']);
  });
});

describe('ralph goal --sandbox', () => {
  it('completes the goal; its iterations cannot write outside, into $HOME or the hooks, or read ~/.ssh', async () => {
    const dir = await outsideDir();
    const second: Turn[] = [];
    const g = await createGoalProject({
      1: [
        [
          result({
            status: 'continue',
            summary: 'Planned one step',
            pendingSteps: [{ id: null, prompt: 'Create greet.txt' }],
          }),
        ],
      ],
      2: [second],
    });
    project = g;
    const hooks = join(g.repo.dir, '.git', 'hooks');
    second.push(
      reach([join(dir, 'goal.txt'), join(home, 'planted.txt'), join(hooks, 'pre-commit')]),
      {
        tool: 'Bash',
        input: { command: `cp '${home}/.ssh/id_rsa' stolen.txt 2>/dev/null || true`, description: 'look' },
      },
      commitFile('greet.txt', 'hello', 'feat: greet'),
      result({
        status: 'goal-complete',
        summary: 'Wrote greet.txt',
        completedStepIds: ['step-0'],
        goalCompleteSummary: 'greet.txt exists.',
      }),
    );
    const run = await g.run(['Create greet.txt', '--name', 'greet', '--headless', '--sandbox'], {
      env: { HOME: home },
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('in a 🔒 bwrap sandbox');
    expect(run.stdout).toMatch(/goal complete in iteration 2/);
    expect(await g.repo.git('show', 'ralph/greet:greet.txt')).toBe('hello');
    expect(await g.repo.git('ls-tree', '-r', '--name-only', 'ralph/greet')).not.toContain('stolen.txt');
    expect(existsSync(join(dir, 'goal.txt'))).toBe(false);
    expect(existsSync(join(home, 'planted.txt'))).toBe(false);
    expect(existsSync(join(hooks, 'pre-commit'))).toBe(false);
  });
});
