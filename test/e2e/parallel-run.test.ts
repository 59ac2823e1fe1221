/**
 * `ralph run --parallel N` end to end with the real Claude Code against the
 * scripted server (one conversation per story attempt, told apart by
 * session id): stories run at once in their own worktrees and land on the
 * PRD branch one at a time through the merge queue.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { landedOrder, parallelProject, prdBranchFiles, readEvents } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const CHAINS = [
  { id: 'A-1', title: 'Alpha one' },
  { id: 'A-2', title: 'Alpha two', dependsOn: ['A-1'] },
  { id: 'A-3', title: 'Alpha three', dependsOn: ['A-2'] },
  { id: 'B-1', title: 'Beta one' },
  { id: 'B-2', title: 'Beta two', dependsOn: ['B-1'] },
];

describe('ralph run --parallel', () => {
  it('lands two independent chains: every story once, in an order that respects dependencies', async () => {
    const plan = Object.fromEntries(
      CHAINS.map((s) => [
        s.id,
        [
          implement(
            s.id,
            s.title,
            `${s.id}.txt`,
            `${s.id}\n`,
            `\n<ralph>LEARN: ${s.id} learned something</ralph>`,
          ),
        ],
      ]),
    );
    project = await parallelProject(prdJson(CHAINS), plan);
    const result = await project.run(['demo', '--headless', '--parallel', '3']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);

    const order = await landedOrder(project.repo, 'ralph/demo');
    expect([...order].sort()).toEqual(['A-1', 'A-2', 'A-3', 'B-1', 'B-2']);
    expect(order.indexOf('A-1')).toBeLessThan(order.indexOf('A-2'));
    expect(order.indexOf('A-2')).toBeLessThan(order.indexOf('A-3'));
    expect(order.indexOf('B-1')).toBeLessThan(order.indexOf('B-2'));
    // Each story's own commit landed exactly once, and the files are all there.
    const feats = (await project.repo.git('log', '--format=%s', 'main..ralph/demo'))
      .split('\n')
      .filter((s) => s.startsWith('feat:'));
    expect(feats.sort()).toEqual(CHAINS.map((s) => `feat: ${s.id} - ${s.title}`).sort());
    const files = await prdBranchFiles(project.repo, 'ralph/demo');
    for (const s of CHAINS) expect(files).toContain(`${s.id}.txt`);

    // Both chain heads started before anything landed: they ran at once.
    const events = await readEvents(project);
    const firstLanded = events.findIndex((e) => e.type === 'story-passed');
    const startedBefore = events
      .slice(0, firstLanded)
      .filter((e) => e.type === 'iteration-started')
      .map((e) => e.storyId);
    expect(startedBefore).toEqual(expect.arrayContaining(['A-1', 'B-1']));
    // Every story event says which worker ran it; landing is the merge queue's.
    for (const e of events.filter((e) => e.type === 'iteration-started' || e.type === 'story-verified'))
      expect(e.worker).toEqual(expect.any(Number));
    for (const e of events.filter((e) => e.type === 'story-passed')) expect(e.worker).toBe('merge');
    expect(result.stdout).toMatch(/\[w\d A-1\] iteration \d+\/\d+: A-1 Alpha one/);
    expect(result.stdout).toMatch(/\[merge B-2\] ✓ B-2 passed/);

    // Learnings flowed back: on the PRD branch's progress file, and into the prompts of later stories.
    const progress = await project.repo.git('show', 'ralph/demo:.ralph/prds/demo/progress.md');
    for (const s of CHAINS) expect(progress).toContain(`${s.id} learned something`);
    expect(project.stories.prompts('A-3')[0]).toContain('A-2 learned something');

    // Nothing left behind: no story branch, worktree or process.
    expect(await project.repo.git('branch', '--list', 'ralph-stories/*')).toBe('');
    const worktrees = (await project.repo.git('worktree', 'list', '--porcelain'))
      .split('\n')
      .filter((l) => l.startsWith('worktree '));
    expect(worktrees).toHaveLength(2);
    const stories = join(project.repo.dir, '.ralph', 'runs', 'demo', 'stories');
    expect(existsSync(stories) ? await readdir(stories) : []).toEqual([]);
    expect(processesIn(project.repo.dir)).toEqual([]);
  });

  it('a conflict is resolved by the story’s agent on the new tip: not a failed attempt, landed with both stories’ lines', async () => {
    // An existing file is rewritten through the shell (the Write tool wants it read first).
    const edit = (id: string, content: string): Turn[] =>
      shellThenDone(
        id,
        `printf '${content.replaceAll('\n', '\\n')}' > shared.txt && git commit -qam "feat: ${id} - Edit ${id}"`,
      );
    const merged = 'one\nS-1\nS-2\n';
    project = await parallelProject(
      prdJson([
        { id: 'S-1', title: 'Edit S-1' },
        { id: 'S-2', title: 'Edit S-2' },
      ]),
      {
        // Both add a line at the same place; whichever lands second conflicts, and its agent's resolution keeps both.
        'S-1': [edit('S-1', 'one\nS-1\n'), edit('S-1', merged)],
        'S-2': [edit('S-2', 'one\nS-2\n'), edit('S-2', merged)],
      },
      { gates: [NO_CONFLICT_MARKERS], files: { 'shared.txt': 'one\n' } },
    );
    const result = await project.run(['demo', '--json', '--parallel', '2']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    // --json tags every event of a story with its lane (a worker, or the merge queue) and story, like the event log.
    const printed = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; worker?: unknown; storyId?: string });
    for (const e of printed.filter((e) => ['iteration-started', 'signal'].includes(e.type)))
      expect(e).toMatchObject({ worker: expect.anything(), storyId: expect.stringMatching(/^S-[12]$/) });
    for (const e of printed.filter((e) => e.type === 'iteration-started'))
      expect(e.worker).toEqual(expect.any(Number));
    // Gates run in a worker (the story alone) and in the merge queue (the story on the new tip).
    const gates = printed.filter((e) => e.type === 'check-started');
    expect(new Set(gates.map((e) => typeof e.worker))).toEqual(new Set(['number', 'string']));
    for (const e of gates) expect(e.storyId).toMatch(/^S-[12]$/);

    const order = await landedOrder(project.repo, 'ralph/demo');
    expect([...order].sort()).toEqual(['S-1', 'S-2']);
    const [first, second] = order as [string, string];
    // The first to land did so at once; the second's agent was asked once more, to resolve, and told why.
    expect(project.stories.prompts(first)).toHaveLength(1);
    const prompts = project.stories.prompts(second);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).not.toContain('Previous attempt failed');
    expect(prompts[1]).toContain(`while it ran, ${first} landed on the PRD branch`);
    expect(prompts[1]).toContain('`shared.txt`');
    expect(prompts[1]).toMatch(/<<<<<<< [^\n]*\n/);
    expect(prompts[1]).toContain("Keep both stories' intent");
    const events = await readEvents(project);
    expect(events.filter((e) => e.type === 'integration-failed')).toEqual([
      expect.objectContaining({
        worker: 'merge',
        storyId: second,
        kind: 'conflict',
        files: ['shared.txt'],
        landedMeanwhile: [first],
        next: 'resolve',
      }),
    ]);
    expect(events.filter((e) => e.type === 'resolution-started')).toEqual([
      expect.objectContaining({
        storyId: second,
        files: ['shared.txt'],
        landedMeanwhile: [first],
        agent: 'claude',
      }),
    ]);
    // A race is not the story's fault: no failed attempt, and it landed on its first.
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    expect(events.filter((e) => e.type === 'story-passed' && e.storyId === second)).toEqual([
      expect.objectContaining({ attempt: 1, afterResolution: true }),
    ]);
    expect(await project.repo.git('show', 'ralph/demo:shared.txt')).toBe(merged.trimEnd());

    // Every commit the PRD branch ever pointed at (its reflog) and every commit on it: no conflict
    // marker, and each tip is one the tool moved it to after the gates passed.
    const tips = (await project.repo.git('reflog', 'show', '--format=%H %s', 'ralph/demo')).split('\n');
    expect(tips.length).toBeGreaterThanOrEqual(3);
    for (const line of tips) {
      const [sha, ...subject] = line.split(' ');
      expect(subject.join(' ')).toMatch(/^chore(\(ralph\))?: /);
      expect(await markersAt(project, sha ?? '')).toBe(false);
    }
    for (const sha of (await project.repo.git('rev-list', 'main..ralph/demo')).split('\n'))
      expect(await markersAt(project, sha)).toBe(false);
  });

  it('gates that fail on the combined result: the story’s agent fixes the combination on the new tip, told which check failed', async () => {
    // Each story alone passes the gate; both files together need a third, which only the retry adds.
    const gate =
      'test ! -f a.txt || test ! -f b.txt || test -f both.txt || { echo "a.txt and b.txt need both.txt"; exit 1; }';
    const write = (id: string, files: string[]): Turn[] =>
      shellThenDone(
        id,
        `${files.map((f) => `echo ${id} > ${f}`).join(' && ')} && git add -A && git commit -qm "feat: ${id} - Add ${id}"`,
      );
    project = await parallelProject(
      prdJson([
        { id: 'A', title: 'Add A' },
        { id: 'B', title: 'Add B' },
      ]),
      {
        A: [write('A', ['a.txt']), write('A', ['a.txt', 'both.txt'])],
        B: [write('B', ['b.txt']), write('B', ['b.txt', 'both.txt'])],
      },
      { gates: [gate] },
    );
    const result = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const order = await landedOrder(project.repo, 'ralph/demo');
    expect([...order].sort()).toEqual(['A', 'B']);
    const [first, second] = order as [string, string];
    expect(project.stories.prompts(first)).toHaveLength(1);
    const prompts = project.stories.prompts(second);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('once landed on the PRD branch');
    expect(prompts[1]).toContain(`while it ran, ${first} landed on the PRD branch`);
    expect(prompts[1]).toContain('a.txt and b.txt need both.txt');
    const events = await readEvents(project);
    expect(events.filter((e) => e.type === 'integration-failed')).toEqual([
      expect.objectContaining({ storyId: second, kind: 'check-failed', landedMeanwhile: [first] }),
    ]);
    // The combination failing is a race, not the story's failure: nothing counted against it.
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    // Every commit the PRD branch ever pointed at passes the gate.
    for (const line of (await project.repo.git('reflog', 'show', '--format=%H', 'ralph/demo')).split('\n')) {
      const files = await project.repo.git('ls-tree', '--name-only', line);
      const has = (f: string) => files.split('\n').includes(f);
      expect(has('a.txt') && has('b.txt') && !has('both.txt')).toBe(false);
    }
  });

  it('each story runs in a worktree of its own where worktree.setup ran, named in its prompt and never committed', async () => {
    const { prd, plan } = twoStories('W');
    project = await parallelProject(prd, plan, {
      files: {
        // Each run of setup notes where it ran, in the repository's shared git folder.
        'setup.sh': 'pwd >> "$(git rev-parse --git-common-dir)/setup-dirs"\necho warm > .setup-cache\n',
        // The gate fails in a checkout where setup has not run.
        '.ralph/config.yaml': 'worktree:\n  setup: "sh setup.sh"\nchecks:\n  - "test -f .setup-cache"\n',
      },
    });
    const result = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect((await landedOrder(project.repo, 'ralph/demo')).sort()).toEqual(['W-1', 'W-2']);

    const ran = (await project.read('.git/setup-dirs')).trim().split('\n');
    for (const id of ['W-1', 'W-2']) {
      expect(ran.filter((dir) => dir.endsWith(`/.ralph/runs/demo/stories/${id}`))).toHaveLength(1);
      // The agent worked in that checkout, and was told what setup made there.
      const [prompt] = project.stories.prompts(id);
      expect(prompt).toContain('.setup-cache');
    }
    const events = await readEvents(project);
    for (const id of ['W-1', 'W-2']) {
      const started = events.find((e) => e.type === 'setup-started' && e.storyId === id);
      expect(started?.cwd).toMatch(new RegExp(`/\\.ralph/runs/demo/stories/${id}$`));
    }
    const committed = (await project.repo.git('log', '--name-only', '--format=', 'main..ralph/demo')).split(
      '\n',
    );
    expect(committed).not.toContain('.setup-cache');
  });

  it('hooks run in the PRD checkout after each attempt; what they write, sequential or parallel, lands on the PRD branch', async () => {
    const ids = ['H-1', 'H-2', 'H-3'];
    const config = [
      'hooks:',
      '  - id: log',
      '    run: echo "$STORY_ID" >> hook-log.txt',
      '  - id: notes',
      '    parallel: true',
      '    run: mkdir -p notes && echo "notes on $STORY_ID" > "notes/$STORY_ID.md"',
      '',
    ].join('\n');
    project = await parallelProject(
      prdJson(ids.map((id) => ({ id, title: `Story ${id}` }))),
      Object.fromEntries(ids.map((id) => [id, [implement(id, `Story ${id}`, `${id}.txt`, `${id}\n`)]])),
      { files: { '.ralph/config.yaml': config } },
    );
    const result = await project.run(['demo', '--headless', '--parallel', '2']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect((await landedOrder(project.repo, 'ralph/demo')).sort()).toEqual(ids);
    const logged = (await project.repo.git('show', 'ralph/demo:hook-log.txt')).split('\n');
    expect([...logged].sort()).toEqual(ids);
    for (const id of ids) {
      expect(await project.repo.git('show', `ralph/demo:notes/${id}.md`)).toBe(`notes on ${id}`);
      expect(await project.repo.git('show', `ralph/demo:${id}.txt`)).toBe(id);
    }
    const checkout = join(project.repo.dir, '.ralph', 'worktrees', 'demo');
    expect(await project.repo.git('-C', checkout, 'status', '--porcelain')).toBe('');
    expect(await project.repo.git('-C', checkout, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('ralph/demo');
  });

  it('--no-worktree lands on the branch checked out in place, which is left on that branch and clean', async () => {
    const { prd, plan } = twoStories('N');
    project = await parallelProject(prd, plan);
    const start = await project.repo.head();
    const result = await project.run(['demo', '--headless', '--parallel', '2', '--no-worktree']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect((await landedOrder(project.repo, 'main', start)).sort()).toEqual(['N-1', 'N-2']);
    expect(await project.repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    expect(await project.read('N-1.txt')).toBe('N-1\n');
    expect(await project.repo.git('branch', '--list', 'ralph-stories/*')).toBe('');
  });
});

/** An agent that runs one shell command (its work and commit), then says DONE. */
function shellThenDone(id: string, command: string): Turn[] {
  return [
    { tool: 'Bash', input: { command, description: 'work and commit' } },
    { text: `Done.\n<ralph>DONE ${id}</ralph>` },
  ];
}

/** Two independent stories `<prefix>-1` and `<prefix>-2`, each implemented at the first attempt. */
function twoStories(prefix: string) {
  const two = [
    { id: `${prefix}-1`, title: 'First' },
    { id: `${prefix}-2`, title: 'Second' },
  ];
  return {
    prd: prdJson(two),
    plan: Object.fromEntries(two.map((s) => [s.id, [implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`)]])),
  };
}

/** The gate: no tracked file holds a conflict marker. */
const NO_CONFLICT_MARKERS = "! git grep -q -E '^(<<<<<<<|>>>>>>>)'";

async function markersAt(p: LoopProject, sha: string): Promise<boolean> {
  const found = await p.repo.git('grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)', sha).catch(() => '');
  return found !== '';
}
