/**
 * Re-records test/fixtures/agents/claude/*.jsonl from the real, pinned Claude
 * Code CLI against the scripted server. Skipped unless asked for:
 *   RECORD_CLAUDE_FIXTURES=1 npx vitest run test/support/record-claude-fixtures.test.ts
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { runAgent } from '../../src/agents/run-agent.js';
import { startAnthropicServer } from './anthropic-server.js';
import { type ClaudeEnvOptions, createClaudeEnv } from './claude-env.js';
import { createGitFixture } from './git-fixture.js';
import { type Script, scriptedTurns, withFailures } from './model-script.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/agents/claude/', import.meta.url));

interface Recording {
  name: string;
  script: (repo: string) => Script;
  env?: ClaudeEnvOptions;
  extraArgs?: string[];
}

const recordings: Recording[] = [
  {
    name: 'tool-run',
    script: (repo) =>
      scriptedTurns([
        {
          text: 'I will create the file.',
          tool: 'Write',
          input: { file_path: join(repo, 'hello.txt'), content: 'hi\n' },
        },
        {
          tool: 'Bash',
          input: { command: 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1' },
        },
        { text: 'Created hello.txt and committed. <ralph>DONE US-001</ralph>' },
      ]),
  },
  {
    name: 'multi-tool',
    script: () =>
      scriptedTurns([
        {
          text: 'Running two commands.',
          toolUses: [
            { name: 'Bash', input: { command: 'echo first' } },
            { name: 'Bash', input: { command: 'echo second; exit 3' } },
          ],
        },
        { tool: 'Read', input: { file_path: 'missing-file.txt' } },
        { text: 'One command failed. <ralph>FAIL US-002: exit 3</ralph>' },
      ]),
  },
  { name: 'rate-limit-429', script: () => () => ({ error: { status: 429 } }), env: { maxRetries: 0 } },
  {
    name: 'overloaded-529',
    script: () => () => ({ error: { status: 529, message: 'Overloaded' } }),
    env: { maxRetries: 0 },
  },
  {
    name: 'auth-401-retried',
    script: () => () => ({ error: { status: 401, message: 'invalid x-api-key' } }),
    env: { maxRetries: 1 },
  },
  {
    name: 'retry-then-success',
    script: () => withFailures([{ error: { status: 529 } }], scriptedTurns([{ text: 'Recovered.' }])),
    env: { maxRetries: 2 },
  },
  {
    name: 'max-turns',
    script: () => scriptedTurns([{ tool: 'Bash', input: { command: 'echo 1' } }, { text: 'never reached' }]),
    extraArgs: ['--max-turns', '1'],
  },
];

describe.runIf(process.env.RECORD_CLAUDE_FIXTURES === '1')('record Claude Code stream fixtures', () => {
  it.each(recordings)('$name', async ({ name, script, env: envOptions, extraArgs }) => {
    const repo = await createGitFixture();
    const server = await startAnthropicServer(script(repo.dir));
    const claude = await createClaudeEnv(server.url, envOptions);
    const rawLogPath = join(FIXTURES, `${name}.jsonl`);
    try {
      await rm(rawLogPath, { force: true });
      const invocation = claudeAdapter.buildInvocation({
        prompt: `Fixture ${name}: do the story.`,
        ...(extraArgs ? { extraArgs } : {}),
      });
      const result = await runAgent({
        binaryPath: claude.binaryPath,
        adapter: claudeAdapter,
        invocation,
        cwd: repo.dir,
        env: claude.env,
        timeoutMs: 60_000,
        idleTimeoutMs: 30_000,
        rawLogPath,
        onEvent: () => undefined,
      });
      expect(result.stopReason).toBe('exited');
    } finally {
      await server.close();
      await claude.cleanup();
      await repo.cleanup();
    }
  });
});
