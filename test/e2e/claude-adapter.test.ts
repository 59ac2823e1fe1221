/**
 * The real Claude Code CLI, driven through runAgent against the scripted
 * model server: real tools, real files, real git commits; only the model is fake.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agents/agent-event.js';
import { claudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { type AgentRunResult, runAgent } from '../../src/agents/run-agent.js';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeEnvOptions, type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { type Script, scriptedTurns, sessionQueue } from '../support/model-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  repo: GitFixture;
  server: AnthropicServer;
  claude: ClaudeTestEnv;
  logs: string;
}

/** The script is made from the repo directory: Claude's Write tool wants absolute paths. */
async function setup(scriptFor: (repoDir: string) => Script, envOptions?: ClaudeEnvOptions): Promise<Setup> {
  const repo = await createGitFixture();
  cleanups.push(repo.cleanup);
  const server = await startAnthropicServer(scriptFor(repo.dir));
  cleanups.push(server.close);
  const claude = await createClaudeEnv(server.url, envOptions);
  cleanups.push(claude.cleanup);
  const logs = await makeTempDir('claude-logs');
  cleanups.push(() => removeTempDir(logs));
  return { repo, server, claude, logs };
}

async function runClaude(
  { repo, claude, logs }: Setup,
  prompt: string,
  limits: { idleTimeoutMs?: number; name?: string } = {},
): Promise<{ result: AgentRunResult; events: AgentEvent[]; rawLogPath: string }> {
  const events: AgentEvent[] = [];
  const rawLogPath = join(logs, 'iterations', `${limits.name ?? '1'}.jsonl`);
  const result = await runAgent({
    binaryPath: claude.binaryPath,
    adapter: claudeAdapter,
    invocation: claudeAdapter.buildInvocation({ prompt }),
    cwd: repo.dir,
    env: claude.env,
    timeoutMs: 60_000,
    idleTimeoutMs: limits.idleTimeoutMs ?? 30_000,
    rawLogPath,
    onEvent: (event) => events.push(event),
    killGraceMs: 1000,
  });
  return { result, events, rawLogPath };
}

const textsOf = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'assistant-text' ? [e.text] : []));

describe('Claude Code adapter end to end', () => {
  it('writes a file and commits it through real tools, reporting every step', async () => {
    const s = await setup((dir) =>
      scriptedTurns([
        { tool: 'Write', input: { file_path: join(dir, 'hello.txt'), content: 'hello from the agent\n' } },
        { tool: 'Bash', input: { command: 'git add -A && git commit -q -m "feat: US-001 - Say hello"' } },
        { text: 'Done with the story. <ralph>DONE US-001</ralph>' },
      ]),
    );
    const target = join(s.repo.dir, 'hello.txt');
    const { server } = s;

    const prompt = '- Implement US-001: say hello. Commit when done.';
    const { result, events, rawLogPath } = await runClaude(s, prompt);

    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(await readFile(target, 'utf8')).toBe('hello from the agent\n');
    expect(await s.repo.subjects()).toEqual(['feat: US-001 - Say hello', 'chore: initial commit']);
    expect(await s.repo.git('status', '--porcelain')).toBe('');

    expect(server.modelCalls()[0]?.prompt).toBe(prompt);
    const tools = events.flatMap((e) => (e.type === 'tool-started' ? [[e.name, e.summary]] : []));
    expect(tools).toEqual([
      ['Write', target],
      ['Bash', 'git add -A && git commit -q -m "feat: US-001 - Say hello"'],
    ]);
    expect(
      events.filter((e) => e.type === 'tool-finished').every((e) => e.type === 'tool-finished' && e.ok),
    ).toBe(true);
    expect(textsOf(events)).toContain('Done with the story. <ralph>DONE US-001</ralph>');
    const final = events.at(-1);
    expect(final?.type).toBe('result');
    if (final?.type !== 'result') return;
    expect(final.ok).toBe(true);
    expect(final.costUsd).toBeGreaterThan(0);

    // The raw log holds every line: parsing it again gives exactly the live events.
    const raw = await readFile(rawLogPath, 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    const parser = claudeAdapter.createParser();
    expect(raw.split('\n').flatMap((line) => parser.parseLine(line))).toEqual(events);
    expect(events.some((e) => e.type === 'garbage')).toBe(false);
  });

  it('reports an API rate limit as an error event and a failed result', async () => {
    const s = await setup(() => () => ({ error: { status: 429, message: 'Too many requests, slow down' } }), {
      maxRetries: 0,
    });
    const { result, events } = await runClaude(s, 'Do US-002.');
    expect(result.stopReason).toBe('exited');
    expect(result.exitCode).not.toBe(0);
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toEqual([expect.objectContaining({ kind: 'rate-limit' })]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: false });
    expect(textsOf(events)).toEqual([]);
  });

  it('kills Claude Code when the model never answers (idle timeout)', async () => {
    const s = await setup(() => () => ({ hang: true }));
    // Long enough that a slow start-up on a busy machine is not taken for silence.
    const { result, events } = await runClaude(s, 'Do US-003.', { idleTimeoutMs: 10_000 });
    // Claude Code handles SIGTERM itself and exits 143; what matters is that ralph stopped it.
    expect(result.stopReason).toBe('idle');
    expect(events[0]?.type).toBe('session-started');
    expect(events.some((e) => e.type === 'result')).toBe(false);
  });

  it('runs sequential sessions against one server, each with its own script', async () => {
    const s = await setup(() =>
      sessionQueue([
        scriptedTurns([{ text: 'first iteration' }]),
        scriptedTurns([{ text: 'second iteration' }]),
      ]),
    );
    const first = await runClaude(s, 'Iteration one.', { name: '1' });
    const second = await runClaude(s, 'Iteration two.', { name: '2' });
    expect(textsOf(first.events)).toEqual(['first iteration']);
    expect(textsOf(second.events)).toEqual(['second iteration']);
    expect(s.server.modelCalls().map((c) => c.prompt)).toEqual(['Iteration one.', 'Iteration two.']);
  });

  it('preflight passes with IS_SANDBOX=1 and fails as root without it', async () => {
    const s = await setup(() => () => ({ text: 'unused' }));
    const ok = await claudeAdapter.preflight({
      binaryPath: s.claude.binaryPath,
      env: s.claude.env,
      isRoot: true,
    });
    expect(ok).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const { IS_SANDBOX: _dropped, ...withoutSandbox } = s.claude.env;
    const refused = await claudeAdapter.preflight({
      binaryPath: s.claude.binaryPath,
      env: withoutSandbox,
      isRoot: true,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/IS_SANDBOX=1/);
    expect(existsSync(s.claude.binaryPath)).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)(
    'shows why: as root without IS_SANDBOX Claude Code exits at once',
    async () => {
      const s = await setup(() => () => ({ text: 'unused' }));
      delete s.claude.env.IS_SANDBOX;
      const { result, events } = await runClaude(s, 'Do US-004.');
      expect(result).toMatchObject({ stopReason: 'exited', exitCode: 1 });
      expect(result.stderr).toContain('cannot be used with root/sudo privileges');
      expect(events).toEqual([]);
      expect(s.server.modelCalls()).toEqual([]);
    },
  );
});
