/**
 * The world outside never costs a story, with the real Claude Code (its own
 * retries at their default, ten) against the scripted model server: a
 * refused key stops the run in its first attempt with exit 4; an API that
 * refuses connections for 20 s, or answers "overloaded", is waited out and
 * the run completes; a binary gone mid-run stops it with its path and the
 * operating system's error. Nothing is counted or parked for any of them.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLoopProject,
  featSubjects,
  type LoopProject,
  prdJson,
  runEvents,
} from '../support/loop-project.js';
import { withFailures } from '../support/model-script.js';
import {
  countedAgainstStories as counted,
  TWO_STORIES_PLAN as PLAN,
  SHORT_WAITS,
  storyAttempts as storyState,
  TWO_STORIES as TWO,
} from '../support/outside-checks.js';
import { implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let project: LoopProject | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  for (const dir of dirs.splice(0)) await removeTempDir(dir);
});

/** Claude Code's own retries as users have them, and short waits on ralph's side. */
const ENV = { CLAUDE_CODE_MAX_RETRIES: '10', ...SHORT_WAITS };
const ARGS = ['prd.json', '--headless', '--no-worktree'];

describe('the world outside', () => {
  it('a key the API refuses: exit 4 within one attempt, one sentence, nothing counted or parked', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, PLAN, {
      wrap: () => () => ({
        error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
      }),
    });
    const started = Date.now();
    const result = await project.run(ARGS, { env: ENV });
    expect(result.exitCode).toBe(4);
    // Claude Code alone would retry the 401 for about three minutes.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(result.stdout).toMatch(/✗ claude: claude cannot authenticate: .*; run `claude` and log in/);
    const all = await runEvents(project);
    expect(all.filter((e) => e.type === 'iteration-started')).toHaveLength(1);
    expect(all.find((e) => e.type === 'agent-unusable')).toMatchObject({ agent: 'claude', kind: 'auth' });
    expect(all.at(-1)).toMatchObject({
      type: 'run-finished',
      reason: 'agent-unusable',
      exitCode: 4,
      parked: [],
    });
    expect(counted(all)).toEqual([]);
    expect(await storyState(project)).toMatchObject({ 'US-001': { attempts: 0 } });
    expect(await featSubjects(project.repo)).toEqual([]);
  });

  it('connections refused for 20 s, then back: the run waits, probing, and completes with nothing counted', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, PLAN);
    const server = project.server;
    await server.pause();
    const back = new Promise<void>((resolve) => setTimeout(() => void server.resume().then(resolve), 20_000));
    const result = await project.run(ARGS, { env: ENV });
    await back;
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const all = await runEvents(project);
    const waits = all.filter((e) => e.type === 'waiting');
    expect(waits.length).toBeGreaterThan(3);
    expect(waits[0]).toMatchObject({ reason: 'outage', agent: 'claude', storyId: 'US-001' });
    expect(String(waits[0]?.message)).toMatch(/claude cannot reach its API/);
    // Each refused attempt was stopped early, not after Claude Code's own three minutes of retries.
    expect(all.filter((e) => e.type === 'iteration-started').length).toBeLessThan(8);
    expect(counted(all)).toEqual([]);
    for (const id of ['US-001', 'US-002'])
      expect(all.find((e) => e.type === 'story-passed' && e.storyId === id)).toMatchObject({ attempt: 1 });
    expect(result.stdout).toMatch(/waiting \(outage\): claude cannot reach its API/);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
  }, 120_000);

  it('an overloaded API (529): waited out and completed, nothing counted', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, PLAN, {
      wrap: (script) =>
        withFailures(
          Array.from({ length: 6 }, () => ({ error: { status: 529, message: 'Overloaded' } })),
          script,
        ),
    });
    const result = await project.run(ARGS, { env: ENV });
    expect(result.exitCode).toBe(0);
    const all = await runEvents(project);
    expect(all.find((e) => e.type === 'waiting')).toMatchObject({ reason: 'outage', agent: 'claude' });
    expect(String(all.find((e) => e.type === 'waiting')?.message)).toMatch(/overloaded/);
    expect(counted(all)).toEqual([]);
    expect(all.find((e) => e.type === 'story-passed' && e.storyId === 'US-001')).toMatchObject({
      attempt: 1,
    });
    expect(await featSubjects(project.repo)).toHaveLength(2);
  }, 120_000);

  it('a used-up quota: waited out (as a quota, not a story failure) and completed', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, PLAN, {
      wrap: (script) =>
        withFailures(
          [{ error: { status: 429, type: 'rate_limit_error', message: 'Usage limit reached' } }],
          script,
        ),
    });
    const result = await project.run(ARGS, {
      env: { ...ENV, CLAUDE_CODE_MAX_RETRIES: '0', RALPH_RATE_LIMIT_BACKOFF_MS: '300' },
    });
    expect(result.exitCode).toBe(0);
    const all = await runEvents(project);
    expect(all.find((e) => e.type === 'waiting')).toMatchObject({
      reason: 'quota',
      agent: 'claude',
      storyId: 'US-001',
    });
    expect(result.stdout).toMatch(/waiting \(quota\): claude is out of quota: .*Usage limit reached/);
    expect(counted(all)).toEqual([]);
    expect(all.find((e) => e.type === 'story-passed' && e.storyId === 'US-001')).toMatchObject({
      attempt: 1,
    });
  }, 120_000);

  it('an outage past --outage-wait stops the run with exit 3 and the reason, nothing counted', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(TWO) }, PLAN);
    await project.server.pause();
    const result = await project.run([...ARGS, '--outage-wait', '4'], { env: ENV });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/claude cannot reach its API .*did not come back within --outage-wait/);
    const all = await runEvents(project);
    expect(all.at(-1)).toMatchObject({ type: 'run-finished', reason: 'outage-wait', exitCode: 3 });
    expect(counted(all)).toEqual([]);
    expect(await storyState(project)).toMatchObject({ 'US-001': { attempts: 0 } });
  }, 120_000);

  it('the agent binary gone mid-run: exit 4 naming its path and the error, nothing counted', async () => {
    const bin = await makeTempDir('agent-bin');
    dirs.push(bin);
    const claude = join(bin, 'claude');
    // US-001's agent removes its own binary (as an upgrade gone wrong would); it runs on, US-002's cannot start.
    const removing = { tool: 'Bash', input: { command: `rm ${claude}`, description: 'remove' } };
    const [write, ...rest] = implement('US-001', 'Add greeting', 'greet.txt', 'hello\n');
    project = await createLoopProject(
      { 'prd.json': prdJson(TWO) },
      { ...PLAN, 'US-001': [[removing, ...(write ? [write] : []), ...rest]] },
    );
    await symlink(project.claude.binaryPath, claude);
    const result = await project.run([...ARGS, '--agent-path', claude], { env: ENV });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toContain(`claude could not be started: spawn ${claude} ENOENT`);
    expect(result.stdout).toMatch(
      /install it \(npm i -g @anthropic-ai\/claude-code\) or point --agent-path at it/,
    );
    const all = await runEvents(project);
    expect(all.find((e) => e.type === 'agent-unusable')).toMatchObject({ kind: 'not-startable' });
    expect(counted(all)).toEqual([]);
    expect(await storyState(project)).toMatchObject({ 'US-001': { attempts: 1 }, 'US-002': { attempts: 0 } });
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  }, 120_000);
});
