/**
 * `ralph run --parallel` on PRDs whose stories touch the same files, with
 * the real Claude Code against the scripted server: every story appends a
 * line to one file, or rewrites one shared line, or adds a key to one JSON
 * file. Stories that lose the race to land are brought onto the new tip
 * (by their agent) rather than charged a retry: every story lands exactly
 * once, no commit the PRD branch ever pointed at holds a conflict marker,
 * and every story's lines are there at the end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopProject, prdJson, type StoryDef } from '../support/loop-project.js';
import {
  droppingResolution,
  OVERLAP_FILES,
  type OverlapAgentOptions,
  type OverlapKind,
  overlapAgent,
  promptsOnly,
  registryLine,
  SIX_STORIES,
} from '../support/overlap-prds.js';
import { landedOrder, parallelProject, readEvents } from '../support/parallel-project.js';
import { processesIn } from '../support/processes.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const NO_CONFLICT_MARKERS = "! git grep -q -E '^(<<<<<<<|>>>>>>>)'";
const VALID_JSON = `node -e 'JSON.parse(require("fs").readFileSync("config.json", "utf8"))'`;

/** Every story landed once, in dependency order, each with its own commit, and nothing of the run left. */
async function expectLandedOnce(p: LoopProject, stories: readonly StoryDef[]): Promise<void> {
  const order = await landedOrder(p.repo, 'ralph/demo');
  expect([...order].sort()).toEqual(stories.map((s) => s.id).sort());
  for (const s of stories) {
    for (const dep of s.dependsOn ?? []) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(s.id));
  }
  const feats = (await p.repo.git('log', '--format=%s', 'main..ralph/demo'))
    .split('\n')
    .filter((l) => l.startsWith('feat:'));
  expect(feats.sort()).toEqual(stories.map((s) => `feat: ${s.id} - ${s.title}`).sort());
  for (const s of stories) expect(await p.repo.git('show', `ralph/demo:${s.id}.txt`)).toBe(s.id);
  expect(await p.repo.git('branch', '--list', 'ralph-stories/*')).toBe('');
  expect(processesIn(p.repo.dir)).toEqual([]);
}

/** No commit the PRD branch ever pointed at (every reflog tip), nor any commit on it, holds a conflict marker. */
async function expectNoMarkerEver(p: LoopProject): Promise<void> {
  const tips = (await p.repo.git('reflog', 'show', '--format=%H', 'ralph/demo')).split('\n');
  const commits = (await p.repo.git('rev-list', 'main..ralph/demo')).split('\n');
  for (const sha of new Set([...tips, ...commits])) {
    const found = await p.repo.git('grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)', sha).catch(() => '');
    expect(found, `conflict markers at ${sha}`).toBe('');
  }
}

/** Runs `ralph run --parallel <workers>` on the stories, and checks what must hold whatever raced. */
async function runOverlapping(
  kind: OverlapKind,
  stories: readonly StoryDef[],
  options: { workers: number; gates?: string[]; resolve?: OverlapAgentOptions['resolve'] },
) {
  const p = await parallelProject(prdJson([...stories]), promptsOnly(stories), {
    gates: [NO_CONFLICT_MARKERS, ...(options.gates ?? [])],
    files: OVERLAP_FILES[kind],
    wrap: overlapAgent(kind, stories, options.resolve ? { resolve: options.resolve } : {}),
  });
  project = p;
  const result = await p.run(['demo', '--headless', '--parallel', String(options.workers)]);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  await expectLandedOnce(p, stories);
  await expectNoMarkerEver(p);
  return { p, result, events: await readEvents(p) };
}

describe('ralph run --parallel, stories touching the same files', () => {
  it('lines appended to one file: the stories that lose the race are resolved by their agent, none counted, all lines kept', async () => {
    const { p, result, events } = await runOverlapping('append', SIX_STORIES, { workers: 3 });
    const registry = (await p.repo.git('show', 'ralph/demo:REGISTRY.md')).split('\n');
    for (const s of SIX_STORIES) expect(registry.filter((l) => l === registryLine(s.id))).toHaveLength(1);

    // Three stories start at once and all append: the ones that land after the first lose the race.
    const resolutions = events.filter((e) => e.type === 'resolution-started');
    expect(resolutions.length).toBeGreaterThan(0);
    for (const r of resolutions)
      expect(r).toMatchObject({ kind: 'conflict', files: ['REGISTRY.md'], agent: 'claude' });
    // A race is never the story's fault: no failed attempt, nothing parked, every story landed on attempt 1.
    expect(events.filter((e) => e.type === 'attempt-failed' || e.type === 'story-parked')).toEqual([]);
    const passed = events.filter((e) => e.type === 'story-passed');
    expect(passed.map((e) => e.attempt)).toEqual(SIX_STORIES.map(() => 1));
    expect(passed.filter((e) => e.afterResolution === true)).toHaveLength(resolutions.length);
    // The plain lines say what happens, on the merge lane.
    expect(result.stdout).toMatch(
      /\[merge (US-00\d)\] \1 waits to land \(conflict with US-00\d(, US-00\d)* in REGISTRY\.md\); resolving with claude/,
    );
    expect(result.stdout).toMatch(/\[merge US-00\d\] ✓ US-00\d passed on attempt 1, landed after resolution/);
    // The story that lost a race landed next: no other landing came between its race and its landing.
    for (const r of resolutions) {
      const at = events.indexOf(r);
      const nextLanding = events.slice(at).find((e) => e.type === 'story-passed');
      expect(nextLanding?.storyId).toBe(r.storyId);
    }
  }, 240_000);

  it('one line rewritten by every story: resolutions that extend the landed line are kept', async () => {
    const stories = SIX_STORIES.slice(0, 3).map(({ id, title }) => ({ id, title }));
    const { p, events } = await runOverlapping('overwrite', stories, { workers: 3 });
    const line = (await p.repo.git('show', 'ralph/demo:STATUS.md'))
      .split('\n')
      .find((l) => l.startsWith('landed: '));
    for (const s of stories) expect(line?.split(', ')).toContain(s.id);
    expect(
      events.filter((e) => e.type === 'resolution-finished' && e.resolved === true).length,
    ).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'attempt-failed' || e.type === 'story-requeued')).toEqual([]);
  }, 240_000);

  it('a key added to one JSON file by every story: resolved into valid JSON with every key', async () => {
    const stories = SIX_STORIES.slice(0, 3).map(({ id, title }) => ({ id, title }));
    const { p, events } = await runOverlapping('json', stories, { workers: 3, gates: [VALID_JSON] });
    const config = JSON.parse(await p.repo.git('show', 'ralph/demo:config.json')) as Record<string, boolean>;
    expect(config).toEqual({ base: true, ...Object.fromEntries(stories.map((s) => [s.id, true])) });
    expect(events.filter((e) => e.type === 'resolution-started').length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
  }, 240_000);

  it('a resolution that drops the landed story’s line is refused: the story is redone from the new tip, not counted', async () => {
    const stories = [
      { id: 'S-1', title: 'First' },
      { id: 'S-2', title: 'Second' },
    ];
    const { p, result, events } = await runOverlapping('overwrite', stories, {
      workers: 2,
      resolve: droppingResolution,
    });
    const [first, second] = (await landedOrder(p.repo, 'ralph/demo')) as [string, string];
    expect(await p.repo.git('show', 'ralph/demo:STATUS.md')).toBe(
      `# Status\nlanded: base, ${first}, ${second}`,
    );

    expect(events.filter((e) => e.type === 'resolution-finished')).toEqual([
      expect.objectContaining({
        storyId: second,
        resolved: false,
        reason: expect.stringContaining(`the resolution removed lines that ${first} added (STATUS.md:`),
      }),
    ]);
    expect(events.filter((e) => e.type === 'story-requeued')).toEqual([
      expect.objectContaining({ storyId: second, requeues: 1, maxRequeues: 5 }),
    ]);
    expect(events.filter((e) => e.type === 'attempt-failed')).toEqual([]);
    // The redo was given the dropped attempt's number back, and told why it is redone.
    expect(events.filter((e) => e.type === 'story-passed' && e.storyId === second)).toEqual([
      expect.objectContaining({ attempt: 1 }),
    ]);
    const prompts = p.stories.prompts(second);
    expect(prompts).toHaveLength(3);
    expect(prompts[2]).toContain('## Your earlier work did not land');
    expect(prompts[2]).toContain(`while it ran, ${first} landed on the PRD branch`);
    expect(prompts[2]).toContain(`the resolution removed lines that ${first} added`);
    expect(prompts[2]).not.toContain('Previous attempt failed');
    expect(result.stdout).toContain(
      `${second} requeued (1/5): redone from the new tip, not counted as a failed attempt`,
    );
  }, 240_000);

  it('a story hinted to touch what the waiting story touched starts only once it has landed; others start at once', async () => {
    const stories = [
      { id: 'S-1', title: 'First' },
      { id: 'S-2', title: 'Second' },
      { id: 'S-3', title: 'Third' },
      { id: 'S-4', title: 'Fourth' },
    ];
    // S-3 says it touches the registry; S-4 says nothing.
    const prd = JSON.parse(prdJson(stories)) as { userStories: Record<string, unknown>[] };
    const hinted = prd.userStories[2];
    if (hinted) hinted.files = ['REGISTRY.md', 'S-3.txt'];
    const p = await parallelProject(`${JSON.stringify(prd, null, 2)}\n`, promptsOnly(stories), {
      gates: [NO_CONFLICT_MARKERS],
      files: OVERLAP_FILES.append,
      // S-3 and S-4 take their time, so neither is verified before the kill below.
      wrap: overlapAgent('append', stories, {
        firstDelayMs: (id) => (id === 'S-3' || id === 'S-4' ? 8000 : undefined),
      }),
    });
    project = p;
    // Killed as the first race's resolution begins: the reservation is in the run state.
    const killed = await p.run(['demo', '--headless', '--parallel', '2'], {
      env: { RALPH_FAULT_AT: 'resolution-prepared#1' },
    });
    expect(killed.signal).toBe('SIGKILL');
    const state = JSON.parse(await p.read('.ralph/runs/demo/state.json')) as {
      reserved?: { storyId: string; files: string[] };
    };
    const waiting = state.reserved?.storyId ?? '';
    expect(['S-1', 'S-2']).toContain(waiting);
    expect(state.reserved?.files).toContain('REGISTRY.md');
    const before = (await readEvents(p)).length;

    const rerun = await p.run(['demo', '--headless', '--parallel', '3']);
    expect(rerun.stderr).toBe('');
    expect(rerun.exitCode).toBe(0);
    await expectLandedOnce(p, stories);
    await expectNoMarkerEver(p);
    const events = (await readEvents(p)).slice(before);
    const at = (type: string, storyId: string) =>
      events.findIndex((e) => e.type === type && e.storyId === storyId);
    const landed = at('story-passed', waiting);
    // The waiting story landed first; the hinted story started after it, the other one before.
    expect(events.find((e) => e.type === 'story-passed')?.storyId).toBe(waiting);
    expect(at('iteration-started', 'S-3')).toBeGreaterThan(landed);
    expect(at('iteration-started', 'S-4')).toBeLessThan(landed);
  }, 240_000);
});
