/**
 * Re-records test/fixtures/agents/opencode/*.jsonl from the real, pinned
 * OpenCode CLI against the scripted Chat Completions server. Skipped unless asked for:
 *   RECORD_AGENT_FIXTURES=opencode npx vitest run test/e2e/opencode-fixtures.test.ts
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/agents/opencode/opencode-adapter.js';
import { startChatServer } from '../support/chat-server.js';
import { scriptedTurns } from '../support/model-script.js';
import { createOpencodeEnv } from '../support/opencode-env.js';
import { type Recording, recordAgentRun, recordingRequested } from '../support/record-agent.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/agents/opencode', import.meta.url));

const recordings: Recording[] = [
  {
    name: 'tool-run',
    script: () =>
      scriptedTurns([
        {
          text: 'I will create the file.',
          tool: 'Write',
          input: { file_path: 'hello.txt', content: 'hi\n' },
        },
        {
          tool: 'Bash',
          input: { command: 'git add -A && git commit -q -m "feat: US-001 - Hello" && git log --oneline -1' },
        },
        {
          text: 'Created hello.txt and committed. <ralph>DONE US-001</ralph>',
          usage: { cacheReadTokens: 400 },
        },
      ]),
  },
  {
    name: 'multi-tool',
    script: () =>
      scriptedTurns([
        {
          toolUses: [
            { name: 'Bash', input: { command: 'echo first' } },
            { name: 'Bash', input: { command: 'echo second; exit 3' } },
          ],
        },
        { tool: 'read', input: { filePath: 'missing-file.txt' } },
        { text: 'One command failed. <ralph>FAIL US-002: exit 3</ralph>' },
      ]),
  },
  // OpenCode retries a failed call (for over a minute when there is no
  // retry-after header), then prints the error and exits 1.
  {
    name: 'rate-limit-429',
    script: () => () => ({
      error: { status: 429, message: 'Rate limit reached for requests', headers: { 'retry-after': '1' } },
    }),
  },
  {
    name: 'server-error-500',
    script: () => () => ({
      error: { status: 500, message: 'The server had an error', headers: { 'retry-after': '1' } },
    }),
  },
];

describe.runIf(recordingRequested('opencode'))('record OpenCode fixtures', () => {
  for (const recording of recordings) {
    it(recording.name, async () => {
      const result = await recordAgentRun(
        {
          adapter: opencodeAdapter,
          startServer: startChatServer,
          createEnv: createOpencodeEnv,
          fixtureDir: FIXTURES,
        },
        recording,
      );
      expect(['exited', 'idle']).toContain(result.stopReason);
    }, 300_000);
  }
});
