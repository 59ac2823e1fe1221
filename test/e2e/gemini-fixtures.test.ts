/**
 * Re-records test/fixtures/agents/gemini/*.jsonl from the real, pinned Gemini
 * CLI against the scripted Gemini server. Skipped unless asked for:
 *   RECORD_AGENT_FIXTURES=gemini npx vitest run test/e2e/gemini-fixtures.test.ts
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/agents/gemini/gemini-adapter.js';
import { createGeminiEnv, GEMINI_TEST_SETTINGS } from '../support/gemini-env.js';
import { startGeminiServer } from '../support/gemini-server.js';
import { scriptedTurns } from '../support/model-script.js';
import { type Recording, recordAgentRun, recordingRequested } from '../support/record-agent.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/agents/gemini', import.meta.url));

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
          toolUses: [
            { name: 'Bash', input: { command: 'echo first' } },
            { name: 'Bash', input: { command: 'echo second; exit 3' } },
          ],
        },
        { tool: 'read_file', input: { file_path: 'missing-file.txt' } },
        { text: 'One command failed. <ralph>FAIL US-002: exit 3</ralph>' },
      ]),
  },
  {
    name: 'rate-limit-429',
    script: () => () => ({
      error: { status: 429, message: 'Resource has been exhausted (e.g. check quota).' },
    }),
  },
  {
    name: 'server-error-500',
    script: () => () => ({ error: { status: 500, message: 'Internal error encountered.' } }),
  },
];

// One attempt per model call: the CLI's default retries a 429 for minutes.
const createEnv = (url: string) =>
  createGeminiEnv(url, { settings: { ...GEMINI_TEST_SETTINGS, general: { maxAttempts: 1 } } });

describe.runIf(recordingRequested('gemini'))('record Gemini CLI fixtures', () => {
  for (const recording of recordings) {
    it(recording.name, async () => {
      const result = await recordAgentRun(
        { adapter: geminiAdapter, startServer: startGeminiServer, createEnv, fixtureDir: FIXTURES },
        recording,
      );
      expect(result.stopReason).toBe('exited');
    });
  }
});
