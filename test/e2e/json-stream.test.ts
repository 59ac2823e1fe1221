/**
 * `--json` of every runner is one NDJSON stream of the one event vocabulary:
 * `ralph run`, `ralph goal`, `ralph run --worker` and `ralph integrate`, each
 * with the real Claude Code against the scripted server, every line read
 * back through the schema, each stamped with its time and its run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunEventLine, type RunEventRecord } from '../../src/events/run-event.js';
import { createGoalProject, type GoalProject, twoFilePlan } from '../support/goal-project.js';
import { type LoopProject, prdJson } from '../support/loop-project.js';
import { parallelProject } from '../support/parallel-project.js';
import { runRalph } from '../support/ralph-cli.js';
import { createEngine, type Engine, git } from '../support/scale-out-engine.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
let goalProject: GoalProject | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.cleanup();
  await project?.cleanup();
  await goalProject?.cleanup();
  engine = undefined;
  project = undefined;
  goalProject = undefined;
});

/** Every stdout line, read back; a line the schema refuses fails the test with its reason. */
function readBack(stdout: string, run: string): RunEventRecord[] {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  expect(lines.length).toBeGreaterThan(0);
  return lines.map((line) => {
    const read = parseRunEventLine(line);
    if (!read.ok) throw new Error(`not an event (${read.reason}): ${line}`);
    expect(read.event.run).toBe(run);
    expect(Number.isNaN(Date.parse(read.event.at))).toBe(false);
    return read.event;
  });
}

const STORIES = [
  { id: 'US-001', title: 'First' },
  { id: 'US-002', title: 'Second' },
];
const plan = Object.fromEntries(
  STORIES.map((s) => [s.id, [implement(s.id, s.title, `${s.id}.txt`, `${s.id}\n`)]]),
);

describe('--json of every runner', () => {
  it('ralph run: the events from start to finish, in order, each stamped', async () => {
    project = await parallelProject(prdJson(STORIES), plan);
    const run = await project.run(['demo', '--json', '--no-worktree']);
    expect(run.exitCode).toBe(0);
    const events = readBack(run.stdout, 'demo');
    expect(events[0]?.type).toBe('run-started');
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', passed: 2, total: 2, exitCode: 0 });
    expect(events.filter((e) => e.type === 'story-passed').map((e) => e.storyId)).toEqual([
      'US-001',
      'US-002',
    ]);
    const times = events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('ralph goal: the shared events, plus what only a goal run says', async () => {
    goalProject = await createGoalProject(twoFilePlan());
    const run = await goalProject.run(['Write two files', '--name', 'files', '--no-worktree', '--json']);
    expect(run.exitCode).toBe(0);
    const events = readBack(run.stdout, 'files');
    const types = new Set(events.map((e) => e.type));
    for (const shared of ['run-started', 'iteration-started', 'agent-event', 'usage', 'run-finished']) {
      expect(types).toContain(shared);
    }
    expect(types).toContain('goal-result');
    expect([...types].filter((t) => t.startsWith('goal-'))).toEqual(['goal-result']);
    expect(events.at(-1)).toMatchObject({
      type: 'run-finished',
      reason: 'goal-complete',
      passed: 2,
      total: 2,
      goal: { progressFile: expect.stringContaining('PROGRESS.yaml') },
    });
  });

  it('ralph run --worker and ralph integrate: the role jobs end with their own member of the vocabulary', async () => {
    project = await parallelProject(prdJson(STORIES.slice(0, 1)), plan);
    engine = await createEngine(project);
    const clone = `${engine.root}/worker`;
    await git(engine.root, 'clone', '--quiet', engine.origin, clone);
    await git(clone, 'config', 'user.name', 'Ralph Job');
    await git(clone, 'config', 'user.email', 'ralph-job@example.com');
    const env = { ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath };
    const worker = await runRalph(['run', 'demo', '--story', 'US-001', '--worker', '--json'], {
      cwd: clone,
      env,
      timeoutMs: 120_000,
    });
    expect(worker.exitCode).toBe(0);
    const workerEvents = readBack(worker.stdout, 'demo');
    expect(workerEvents.at(-1)).toMatchObject({
      type: 'worker-finished',
      storyId: 'US-001',
      kind: 'verified',
    });
    expect(workerEvents.map((e) => e.type)).toContain('iteration-started');

    const integrated = await engine.integrate();
    expect(integrated.result.exitCode).toBe(0);
    const integrateEvents = readBack(integrated.result.stdout, 'demo');
    expect(integrateEvents.at(-1)).toMatchObject({
      type: 'integrate-finished',
      landed: ['US-001'],
      next: 'pull-request',
    });
    expect(integrateEvents.map((e) => e.type)).toContain('integration-started');
  });
});
