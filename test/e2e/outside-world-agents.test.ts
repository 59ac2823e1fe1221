/**
 * The world outside never costs a story, with the real Codex, Gemini CLI and
 * OpenCode (their own retries at their defaults, as users have them) against
 * their scripted model servers: a refused key stops the run in its first
 * attempt with exit 4; an API that refuses connections for 20 s, or answers
 * that it is overloaded, is waited out and the run completes. Nothing is
 * counted or parked for any of them. `ralph doctor --live` tells a key the
 * API takes from one it refuses. (test/e2e/outside-world.test.ts and
 * test/cli/doctor.test.ts hold the same for Claude Code.) The runs mostly
 * wait, so they run side by side.
 */
import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, type ExpectStatic, it } from 'vitest';
import {
  type AgentLoopOptions,
  createAgentLoopProject,
  type LoopAgent,
} from '../support/agent-loop-project.js';
import { featSubjects, prdJson, runEvents } from '../support/loop-project.js';
import { type Reply, withFailures } from '../support/model-script.js';
import {
  countedAgainstStories,
  SHORT_WAITS,
  storyAttempts,
  TWO_STORIES,
  TWO_STORIES_PLAN,
} from '../support/outside-checks.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** The git the tests run with, for a PATH of its own. */
const GIT =
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'git'))
    .find((path) => existsSync(path)) ?? '/usr/bin/git';

type Agent = Exclude<LoopAgent, 'claude'>;

const ARGS = ['prd.json', '--headless', '--no-worktree'];

/** What each API answers a key it does not take, in its own words. */
const REFUSED_KEY: Record<Agent, Reply> = {
  codex: {
    error: { status: 401, type: 'invalid_api_key', message: 'Incorrect API key provided: test-key.' },
  },
  gemini: { error: { status: 401, message: 'Request had invalid authentication credentials.' } },
  opencode: {
    error: { status: 401, type: 'invalid_api_key', message: 'Incorrect API key provided' },
  },
};

/** The fix each CLI's refused login names. */
const LOGIN: Record<Agent, RegExp> = {
  codex: /run `codex login`, or set OPENAI_API_KEY/,
  gemini: /run `gemini` and log in, or set GEMINI_API_KEY/,
  opencode: /run `opencode auth login` for the provider you use/,
};

/**
 * Each API's own "overloaded" answer: OpenAI's 503 server_is_overloaded (Codex
 * says its model is "at capacity"), Google's 503 UNAVAILABLE, and the 529 of
 * an Anthropic-style gateway behind OpenCode's OpenAI-compatible provider.
 */
const OVERLOADED: Record<Agent, Reply> = {
  codex: {
    error: { status: 503, type: 'server_is_overloaded', message: 'The server is overloaded.' },
  },
  gemini: {
    error: { status: 503, type: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  },
  opencode: { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
};

/**
 * Enough overloaded answers that ralph stops the agent (after four retries in
 * a row; Codex gives up by itself after its own four) and the next attempt
 * still meets one, which the CLI's own retry gets past. Gemini CLI's backoff
 * (5 s, 10 s, 20 s) makes its four alone take 40 s: no fifth for it.
 */
const OVERLOADED_ANSWERS: Record<Agent, number> = { codex: 6, gemini: 4, opencode: 5 };

/** Nothing counted against either story, the first passed on its first attempt, both landed. */
async function expectBothLandedUncounted(
  expect: ExpectStatic,
  all: Awaited<ReturnType<typeof runEvents>>,
  repo: Parameters<typeof featSubjects>[0],
): Promise<void> {
  expect(countedAgainstStories(all)).toEqual([]);
  expect(all.find((e) => e.type === 'story-passed' && e.storyId === 'US-001')).toMatchObject({ attempt: 1 });
  expect(await featSubjects(repo)).toEqual(['feat: US-001 - Add greeting', 'feat: US-002 - Add farewell']);
}

const project = (agent: Agent, options: AgentLoopOptions = {}) =>
  createAgentLoopProject(agent, { 'prd.json': prdJson(TWO_STORIES) }, TWO_STORIES_PLAN, {
    ownRetries: true,
    ...options,
  });

describe.concurrent.each(['codex', 'gemini', 'opencode'] as const)('the world outside, with %s', (agent) => {
  it('a key the API refuses: exit 4 within one attempt, one sentence, nothing counted or parked', async ({
    expect,
    onTestFinished,
  }) => {
    const p = await project(agent, { wrap: () => () => REFUSED_KEY[agent] });
    onTestFinished(() => p.cleanup());
    const result = await p.run(ARGS, SHORT_WAITS);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(new RegExp(`✗ ${agent}: ${agent} cannot authenticate: .*; `));
    expect(result.stdout).toMatch(LOGIN[agent]);
    const all = await runEvents(p);
    expect(all.filter((e) => e.type === 'iteration-started')).toHaveLength(1);
    expect(all.find((e) => e.type === 'agent-unusable')).toMatchObject({ agent, kind: 'auth' });
    expect(all.at(-1)).toMatchObject({
      type: 'run-finished',
      reason: 'agent-unusable',
      exitCode: 4,
      parked: [],
    });
    expect(countedAgainstStories(all)).toEqual([]);
    expect(await storyAttempts(p)).toMatchObject({ 'US-001': { attempts: 0 } });
    expect(await featSubjects(p.repo)).toEqual([]);
  }, 120_000);

  it('connections refused for 20 s, then back: the run waits and completes with nothing counted', async ({
    expect,
    onTestFinished,
  }) => {
    const p = await project(agent);
    onTestFinished(() => p.cleanup());
    await p.server.pause();
    const back = new Promise<void>((resolve) =>
      setTimeout(() => void p.server.resume().then(resolve), 20_000),
    );
    const result = await p.run(ARGS, SHORT_WAITS);
    await back;
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const all = await runEvents(p);
    // Waited out by ralph (the agent stopped after four retries, a probe before the next attempt), or
    // by the CLI's own retries when the API came back first: Codex and Gemini CLI back off 5 s, 10 s,
    // 20 s, so on a busy machine either may happen.
    const waits = all.filter((e) => e.type === 'waiting');
    const ownRetries = all.filter(
      (e) => e.type === 'agent-event' && (e.event as { type: string }).type === 'retry',
    );
    expect(ownRetries.length).toBeGreaterThan(0);
    for (const wait of waits) {
      expect(wait).toMatchObject({ reason: 'outage', agent, storyId: 'US-001' });
      expect(String(wait.message)).toMatch(new RegExp(`^${agent} cannot reach its API`));
    }
    if (waits.length > 0)
      expect(result.stdout).toMatch(new RegExp(`waiting \\(outage\\): ${agent} cannot reach`));
    expect(countedAgainstStories(all)).toEqual([]);
    for (const id of ['US-001', 'US-002'])
      expect(all.find((e) => e.type === 'story-passed' && e.storyId === id)).toMatchObject({ attempt: 1 });
    expect(await featSubjects(p.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
  }, 120_000);

  it('an overloaded API: waited out and completed, nothing counted', async ({ expect, onTestFinished }) => {
    const failures = Array.from({ length: OVERLOADED_ANSWERS[agent] }, () => OVERLOADED[agent]);
    const p = await project(agent, { wrap: (script) => withFailures(failures, script) });
    onTestFinished(() => p.cleanup());
    const result = await p.run(ARGS, SHORT_WAITS);
    expect(result.exitCode).toBe(0);
    const all = await runEvents(p);
    const wait = all.find((e) => e.type === 'waiting');
    expect(wait).toMatchObject({ reason: 'outage', agent, storyId: 'US-001' });
    expect(String(wait?.message)).toMatch(new RegExp(`^${agent} finds its API overloaded: `));
    expect(result.stdout).toMatch(new RegExp(`waiting \\(outage\\): ${agent} finds its API overloaded`));
    await expectBothLandedUncounted(expect, all, p.repo);
  }, 120_000);

  it('doctor --live: ✓ for a key the API takes; ✗ auth, with how to log in, for one it refuses', async ({
    expect,
    onTestFinished,
  }) => {
    // Only node and git on the PATH: the agent is the configured one (agent.path), the others are not found.
    const bin = await makeTempDir('doctor-bin');
    onTestFinished(() => removeTempDir(bin));
    await symlink(process.execPath, join(bin, 'node'));
    await symlink(GIT, join(bin, 'git'));
    const env = { PATH: bin };
    const entry = (stdout: string) =>
      (JSON.parse(stdout) as { agents: { provider: string }[] }).agents.find((a) => a.provider === agent);

    const good = await project(agent, { wrap: () => () => ({ text: 'OK' }) });
    onTestFinished(() => good.cleanup());
    const ok = await good.ralph(['doctor', '--live', '--agent', agent], env);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`✓ ${agent} .*live: logged in, API answered`));
    expect(good.server.modelCalls().length).toBeGreaterThan(0);
    const okJson = await good.ralph(['doctor', '--live', '--agent', agent, '--json'], env);
    expect(entry(okJson.stdout)).toMatchObject({ login: 'ok', live: { ok: true } });

    const bad = await project(agent, { wrap: () => () => REFUSED_KEY[agent] });
    onTestFinished(() => bad.cleanup());
    const refused = await bad.ralph(['doctor', '--live', '--agent', agent], env);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(new RegExp(`✗ ${agent} .*live: failed`));
    expect(refused.stdout).toMatch(/auth: /);
    expect(refused.stdout).toMatch(LOGIN[agent]);
    const badJson = await bad.ralph(['doctor', '--live', '--agent', agent, '--json'], env);
    expect(entry(badJson.stdout)).toMatchObject({
      login: 'failed',
      live: { ok: false, problem: { cause: 'auth' } },
    });
  }, 180_000);

  // OpenCode's overloaded answer above is already a 529.
  it.runIf(agent !== 'opencode')(
    'a 529 "overloaded" answer, as an Anthropic-style gateway sends: completed, nothing counted',
    async ({ expect, onTestFinished }) => {
      const overloaded: Reply = { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };
      const failures = Array.from({ length: OVERLOADED_ANSWERS[agent] }, () => overloaded);
      const p = await project(agent, { wrap: (script) => withFailures(failures, script) });
      onTestFinished(() => p.cleanup());
      const result = await p.run(ARGS, SHORT_WAITS);
      expect(result.exitCode).toBe(0);
      const all = await runEvents(p);
      // Codex rides out this many 529s on its own retries; Gemini CLI's are stopped and waited out.
      for (const wait of all.filter((e) => e.type === 'waiting')) {
        expect(wait).toMatchObject({ reason: 'outage', agent, storyId: 'US-001' });
      }
      await expectBothLandedUncounted(expect, all, p.repo);
    },
    120_000,
  );
});
