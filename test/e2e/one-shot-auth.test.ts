/**
 * The agent one-shot (`agents/one-shot.ts`) under every caller that is not
 * an attempt: a key the API refuses reads the same in a `prompt:` hook, the
 * PRD writer and `doctor --live` as in a run's stop, with the real Claude
 * Code against the scripted model server.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSetup } from '../../src/agents/adapter.js';
import { checkAgentLive } from '../../src/agents/live-check.js';
import { outsideSentence } from '../../src/agents/one-shot.js';
import { getAdapter } from '../../src/agents/registry.js';
import { runHeadless } from '../../src/prd-writer/headless.js';
import { runPromptHook } from '../../src/run/hooks-prompt.js';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { removeTempDir } from '../support/temp-dir.js';

const SENTENCE =
  /^claude cannot authenticate: .*; run `claude` and log in with \/login, or set ANTHROPIC_API_KEY, then run ralph again$/;

describe('a refused login through the one-shot', () => {
  let server: AnthropicServer;
  let claude: ClaudeTestEnv;
  let agent: AgentSetup;
  let dir: string;

  beforeAll(async () => {
    server = await startAnthropicServer(() => ({ error: { status: 401, message: 'invalid x-api-key' } }));
    claude = await createClaudeEnv(server.url);
    const adapter = getAdapter('claude');
    if (!adapter) throw new Error('no claude adapter');
    agent = { adapter, binaryPath: claude.binaryPath, extraArgs: [], env: claude.env };
    dir = await mkdtemp(join(tmpdir(), 'ralph-one-shot-'));
  });
  afterAll(async () => {
    await server?.close();
    await claude?.cleanup();
    if (dir) await removeTempDir(dir);
  });

  const limits = { timeoutMs: 60_000, idleTimeoutMs: 60_000 };

  it('reads as the run’s agent-unusable sentence in a prompt hook and the PRD writer; doctor --live calls it auth', async () => {
    const hook = await runPromptHook({
      prompt: 'Summarise the notes.',
      agent,
      cwd: dir,
      outputFile: join(dir, 'hook.jsonl'),
      ...limits,
      signal: new AbortController().signal,
    });
    const writer = await runHeadless({
      setup: agent,
      cwd: dir,
      prompt: 'Write a PRD.',
      rawLogPath: join(dir, 'writer.jsonl'),
      ...limits,
    });
    const live = await checkAgentLive(agent, 60_000);

    expect(hook.error).toMatch(SENTENCE);
    expect(writer.failure).toMatch(SENTENCE);
    expect(live.ok).toBe(false);
    if (live.ok) return;
    expect(live.failure.cause).toBe('auth');
    // The one sentence, made from what doctor --live found, is the hook's and the writer's word for word.
    const said = outsideSentence({ cause: 'auth', message: live.failure.message }, agent);
    expect(said).toMatch(SENTENCE);
    expect(hook.error).toBe(writer.failure);
    expect(said).toBe(hook.error);
  }, 180_000);
});
