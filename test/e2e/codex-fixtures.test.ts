/**
 * Re-records test/fixtures/agents/codex/*.jsonl from the real, pinned Codex
 * CLI against the scripted Responses server. Skipped unless asked for:
 *   RECORD_AGENT_FIXTURES=codex npx vitest run test/e2e/codex-fixtures.test.ts
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { createCodexEnv } from '../support/codex-env.js';
import { scriptedTurns } from '../support/model-script.js';
import { type Recording, recordAgentRun, recordingRequested } from '../support/record-agent.js';
import { startResponsesServer } from '../support/responses-server.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/agents/codex', import.meta.url));

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
        { text: 'One command failed. <ralph>FAIL US-002: exit 3</ralph>' },
      ]),
  },
  {
    name: 'rate-limit-429',
    script: () => () => ({ error: { status: 429, message: 'Rate limit reached for requests' } }),
  },
  {
    name: 'usage-limit',
    script: () => () => ({
      error: { status: 429, type: 'usage_limit_reached', message: 'The usage limit has been reached' },
    }),
  },
  { name: 'server-error-500', script: () => () => ({ error: { status: 500, message: 'Internal failure' } }) },
];

describe.runIf(recordingRequested('codex'))('record Codex fixtures', () => {
  for (const recording of recordings) {
    it(recording.name, async () => {
      const result = await recordAgentRun(
        {
          adapter: codexAdapter,
          startServer: startResponsesServer,
          createEnv: createCodexEnv,
          fixtureDir: FIXTURES,
        },
        recording,
      );
      expect(result.stopReason).toBe('exited');
    });
  }
});
