/**
 * The attempt kernel on its own, with the real Claude Code CLI against the
 * scripted server: two story attempts at once in two worktrees of one
 * repository, and a goal iteration, each judged by its shape.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSetup } from '../../src/agents/adapter.js';
import { claudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import type { AttemptEvent } from '../../src/attempt/attempt-request.js';
import { rollBackAttempt } from '../../src/attempt/rollback.js';
import { runAttempt } from '../../src/attempt/run-attempt.js';
import { goalShape } from '../../src/core/goal-shape.js';
import { STORY_BRANCH_PREFIX } from '../../src/core/story-ref.js';
import { storyShape } from '../../src/core/story-shape.js';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import type { Script } from '../support/model-script.js';
import { implement, storyScript } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function setUp(
  script: Script,
): Promise<{ repo: GitFixture; server: AnthropicServer; agent: AgentSetup; logs: string }> {
  const repo = await createGitFixture();
  const server = await startAnthropicServer(script);
  const env: ClaudeTestEnv = await createClaudeEnv(server.url, { maxRetries: 0 });
  const logs = await makeTempDir('kernel-logs');
  cleanups.push(repo.cleanup, server.close, env.cleanup, () => removeTempDir(logs));
  const agent: AgentSetup = {
    adapter: claudeAdapter,
    binaryPath: env.binaryPath,
    extraArgs: [],
    env: env.env,
  };
  return { repo, server, agent, logs };
}

function request<S, V>(
  common: { agent: AgentSetup; logs: string },
  cwd: string,
  name: string,
  prompt: string,
  shape: import('../../src/core/attempt-facts.js').AttemptShape<S, V>,
  gates: string[],
) {
  const events: AttemptEvent[] = [];
  const record: string[] = [];
  return {
    events,
    record,
    run: () =>
      runAttempt({
        cwd,
        prompt,
        agent: common.agent,
        timeoutMs: 90_000,
        idleTimeoutMs: 60_000,
        gates,
        killSignal: new AbortController().signal,
        rawLogPath: join(common.logs, `${name}.jsonl`),
        toolPaths: ['prd.json'],
        isToolPath: (p) => p === 'prd.json',
        shape,
        begin: async (head) => {
          record.push(`begin ${head.slice(0, 7)}`);
        },
        spawned: async (pid) => {
          record.push(`spawned ${pid > 0}`);
        },
        agentDone: async ({ agent }) => {
          record.push(`done ${agent.stopReason}`);
        },
        emit: (event) => events.push(event),
      }),
  };
}

describe('the attempt kernel', () => {
  it('runs two story attempts at once in two worktrees, each verified in its own checkout', async () => {
    const plan = storyScript({
      'US-1': [implement('US-1', 'One', 'one.txt', 'one\n')],
      'US-2': [implement('US-2', 'Two', 'two.txt', 'two\n')],
    });
    const { repo, agent, logs } = await setUp(plan.script);
    const head = await repo.head();
    const trees = join(logs, 'trees');
    // Story branches, as a parallel run names them: the only branches besides its own an attempt may see
    // move (the other attempt's), where any other moved ref is put back.
    await repo.git('worktree', 'add', '-q', '-b', `${STORY_BRANCH_PREFIX}/a`, join(trees, 'a'));
    await repo.git('worktree', 'add', '-q', '-b', `${STORY_BRANCH_PREFIX}/b`, join(trees, 'b'));
    // Each gate passes only in its own worktree: the other story's file is not there.
    const story = (id: string, title: string, file: string, other: string) =>
      request(
        { agent, logs },
        join(trees, file === 'one.txt' ? 'a' : 'b'),
        id,
        `## Your story: ${id} - ${title}\nWrite ${file}, commit it, then say <ralph>DONE ${id}</ralph>.`,
        storyShape(id),
        [`test -f ${file} && test ! -f ${other}`],
      );
    const one = story('US-1', 'One', 'one.txt', 'two.txt');
    const two = story('US-2', 'Two', 'two.txt', 'one.txt');
    const [a, b] = await Promise.all([one.run(), two.run()]);

    for (const [outcome, id, run] of [
      [a, 'US-1', one],
      [b, 'US-2', two],
    ] as const) {
      expect(outcome.verdict).toEqual({ kind: 'pass' });
      expect(outcome.facts.headBefore).toBe(head);
      expect(outcome.facts.commits.map((c) => c.subject)).toEqual([
        `feat: ${id} - ${id === 'US-1' ? 'One' : 'Two'}`,
      ]);
      expect(outcome.facts.dirtyPaths).toEqual([]);
      expect(outcome.facts.said.done).toEqual([id]);
      expect(outcome.facts.gates).toMatchObject([{ exitCode: 0 }]);
      expect(run.record).toEqual([`begin ${head.slice(0, 7)}`, 'spawned true', 'done exited']);
      expect(run.events.map((e) => e.type)).toContain('check-finished');
    }
    // The main checkout never moved.
    expect(await repo.head()).toBe(head);
    expect(existsSync(join(repo.dir, 'one.txt'))).toBe(false);
  });

  it('judges a goal iteration by its JSON result, restores the tool files it committed, and rolls back', async () => {
    const result = {
      status: 'continue',
      summary: 'planned',
      pendingSteps: [{ id: null, prompt: 'write notes' }],
    };
    const { repo, agent, logs } = await setUp((req) =>
      req.turn === 0
        ? {
            toolUses: [
              {
                name: 'Bash',
                input: {
                  command:
                    'echo changed > prd.json && echo work > work.txt && git add -A && git commit -qm "feat: work"',
                  description: 'work',
                },
              },
            ],
          }
        : { text: `Done.\n\`\`\`json\n${JSON.stringify(result)}\n\`\`\`` },
    );
    await repo.write('prd.json', '{}\n');
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'tool file');
    const head = await repo.head();
    const run = request({ agent, logs }, repo.dir, 'goal', 'Plan the goal.', goalShape, ['test -f work.txt']);
    const outcome = await run.run();

    expect(outcome.verdict).toMatchObject({
      kind: 'result',
      result: { status: 'continue', summary: 'planned' },
    });
    expect(run.events).toContainEqual({ type: 'tool-file-restored', path: 'prd.json' });
    expect(outcome.facts.commits.map((c) => c.subject)).toEqual(['feat: work']);
    expect(outcome.facts.gates).toMatchObject([{ command: 'test -f work.txt', exitCode: 0 }]);

    expect(await rollBackAttempt(repo.dir, head)).toBeUndefined();
    expect(await repo.head()).toBe(head);
    expect(existsSync(join(repo.dir, 'work.txt'))).toBe(false);
  });
});
