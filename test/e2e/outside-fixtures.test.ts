/**
 * Records how the real, pinned agent CLIs end when the outside world fails
 * them (test/fixtures/agents/<agent>/outside/). Skipped unless asked for:
 *   RECORD_AGENT_FIXTURES=claude npx vitest run test/e2e/outside-fixtures.test.ts
 */

import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ampAdapter } from '../../src/agents/amp/amp-adapter.js';
import { claudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { codexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { geminiAdapter } from '../../src/agents/gemini/gemini-adapter.js';
import { opencodeAdapter } from '../../src/agents/opencode/opencode-adapter.js';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { startChatServer } from '../support/chat-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { CODEX_KEY_VAR, createCodexEnv } from '../support/codex-env.js';
import { createGeminiEnv, GEMINI_TEST_SETTINGS } from '../support/gemini-env.js';
import { startGeminiServer } from '../support/gemini-server.js';
import { createOpencodeEnv } from '../support/opencode-env.js';
import { recordingRequested } from '../support/record-agent.js';
import {
  type OutsideRecorder,
  type OutsideScenario,
  plainServer,
  recordOutside,
} from '../support/record-outside.js';
import { startResponsesServer } from '../support/responses-server.js';
import type { ScriptedServer } from '../support/scripted-server.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const dir = (agent: string) => fileURLToPath(new URL(`../fixtures/agents/${agent}/outside`, import.meta.url));

const retries = (n: number) => (env: NodeJS.ProcessEnv) => ({ ...env, CLAUDE_CODE_MAX_RETRIES: String(n) });
const inAnHour = () => String(Math.floor(Date.now() / 1000) + 3600);

const claude: { recorder: OutsideRecorder; scenarios: OutsideScenario[] } = {
  recorder: {
    adapter: claudeAdapter,
    startServer: (script) => startAnthropicServer(script),
    createEnv: (url) => createClaudeEnv(url),
    fixtureDir: dir('claude'),
  },
  scenarios: [
    {
      name: 'not-logged-in',
      made: 'no ANTHROPIC_API_KEY, an empty CLAUDE_CONFIG_DIR; the server answers everything',
      script: () => ({ text: 'should not be asked' }),
      env: ({ ANTHROPIC_API_KEY: _key, ...env }) => env,
    },
    {
      name: 'auth-401',
      made: 'HTTP 401 authentication_error "invalid x-api-key" to every call, default retries',
      script: () => ({ error: { status: 401, message: 'invalid x-api-key' } }),
    },
    {
      name: 'forbidden-403',
      made: 'HTTP 403 permission_error to every call, default retries',
      script: () => ({
        error: {
          status: 403,
          message: 'Your API key does not have permission to use the specified resource.',
        },
      }),
    },
    {
      name: 'overloaded-529',
      made: 'HTTP 529 overloaded_error to every call, CLAUDE_CODE_MAX_RETRIES=3',
      script: () => ({ error: { status: 529, message: 'Overloaded' } }),
      env: retries(3),
    },
    {
      name: 'server-error-500',
      made: 'HTTP 500 api_error to every call, CLAUDE_CODE_MAX_RETRIES=3',
      script: () => ({ error: { status: 500, message: 'Internal server error' } }),
      env: retries(3),
    },
    {
      name: 'unavailable-503',
      made: 'HTTP 503 to every call, CLAUDE_CODE_MAX_RETRIES=3',
      script: () => ({ error: { status: 503, type: 'api_error', message: 'Service Unavailable' } }),
      env: retries(3),
    },
    {
      name: 'rate-limit-429-reset',
      made: 'HTTP 429 rate_limit_error with retry-after: 30 and anthropic-ratelimit reset headers, CLAUDE_CODE_MAX_RETRIES=1',
      script: () => ({
        error: {
          status: 429,
          message: 'Number of request tokens has exceeded your per-minute rate limit',
          headers: {
            'retry-after': '30',
            'anthropic-ratelimit-requests-reset': new Date(Date.now() + 30_000).toISOString(),
          },
        },
      }),
      env: retries(1),
    },
    {
      name: 'quota-429',
      made: 'HTTP 429 with anthropic-ratelimit-unified-status: rejected and a reset an hour on (a subscription usage limit), CLAUDE_CODE_MAX_RETRIES=1',
      script: () => ({
        error: {
          status: 429,
          message: 'Usage limit reached',
          headers: {
            'anthropic-ratelimit-unified-status': 'rejected',
            'anthropic-ratelimit-unified-reset': inAnHour(),
            'anthropic-ratelimit-unified-representative-claim': 'five_hour',
          },
        },
      }),
      env: retries(1),
    },
    {
      name: 'unreachable',
      made: 'ANTHROPIC_BASE_URL at a closed port on 127.0.0.1 (connection refused), CLAUDE_CODE_MAX_RETRIES=4',
      env: retries(4),
    },
  ],
};

/** The scripted provider without ralph's test setting of no retries: Codex's own retries, as users have them. */
const codex: { recorder: OutsideRecorder; scenarios: OutsideScenario[] } = {
  recorder: {
    adapter: codexAdapter,
    startServer: (script) => startResponsesServer(script),
    createEnv: (url) => createCodexEnv(url, { ownRetries: true }),
    fixtureDir: dir('codex'),
  },
  scenarios: [
    {
      name: 'no-key',
      made: `the provider's key variable (${CODEX_KEY_VAR}) unset`,
      script: () => ({ text: 'should not be asked' }),
      env: ({ [CODEX_KEY_VAR]: _key, ...env }) => env,
    },
    {
      name: 'auth-401',
      made: 'HTTP 401 invalid_api_key to every call, default retries',
      script: () => ({
        error: { status: 401, type: 'invalid_api_key', message: 'Incorrect API key provided: test-key.' },
      }),
    },
    {
      name: 'overloaded-503',
      made: 'HTTP 503 server_is_overloaded to every call, default retries',
      script: () => ({
        error: {
          status: 503,
          type: 'server_is_overloaded',
          message: 'The server is overloaded. Please try again later.',
        },
      }),
    },
    {
      name: 'quota-429',
      made: 'HTTP 429 insufficient_quota to every call, default retries',
      script: () => ({
        error: {
          status: 429,
          type: 'insufficient_quota',
          message: 'You exceeded your current quota, please check your plan and billing details.',
        },
      }),
    },
    {
      name: 'unreachable',
      made: 'the provider base_url at a closed port on 127.0.0.1 (connection refused), default retries',
    },
  ],
};

const geminiEnv = (maxAttempts: number) => (url: string) =>
  createGeminiEnv(url, { settings: { ...GEMINI_TEST_SETTINGS, general: { maxAttempts } } });

const gemini: { recorder: OutsideRecorder; scenarios: OutsideScenario[] } = {
  recorder: {
    adapter: geminiAdapter,
    startServer: (script) => startGeminiServer(script),
    createEnv: geminiEnv(3),
    fixtureDir: dir('gemini'),
  },
  scenarios: [
    {
      name: 'no-key',
      made: 'GEMINI_API_KEY unset, settings selecting gemini-api-key',
      script: () => ({ text: 'should not be asked' }),
      env: ({ GEMINI_API_KEY: _key, ...env }) => env,
    },
    {
      name: 'key-invalid-400',
      made: 'HTTP 400 INVALID_ARGUMENT "API key not valid" (what the Gemini API answers a bad key), general.maxAttempts 3',
      script: () => ({
        error: { status: 400, message: 'API key not valid. Please pass a valid API key.' },
      }),
    },
    {
      name: 'auth-401',
      made: 'HTTP 401 UNAUTHENTICATED to every call, general.maxAttempts 3',
      script: () => ({
        error: { status: 401, message: 'Request had invalid authentication credentials.' },
      }),
    },
    {
      name: 'forbidden-403',
      made: 'HTTP 403 PERMISSION_DENIED to every call, general.maxAttempts 3',
      script: () => ({
        error: { status: 403, message: 'The caller does not have permission' },
      }),
    },
    {
      name: 'overloaded-503',
      made: 'HTTP 503 UNAVAILABLE "The model is overloaded" to every call, general.maxAttempts 3',
      script: () => ({
        error: { status: 503, message: 'The model is overloaded. Please try again later.' },
      }),
    },
    {
      name: 'unreachable',
      made: 'GOOGLE_GEMINI_BASE_URL at a closed port on 127.0.0.1 (connection refused), general.maxAttempts 3',
    },
  ],
};

/**
 * OpenCode with its log on stderr (`--print-logs --log-level WARN`, in the
 * adapter's arguments): it retries every failure but a refused key for ever,
 * saying each in its log, so those recordings end at their 45 s limit.
 * (The recordings without `-logged` were made before the adapter asked for
 * the log: the same failures, silent.)
 */
const opencode: { recorder: OutsideRecorder; scenarios: OutsideScenario[] } = {
  recorder: {
    adapter: opencodeAdapter,
    startServer: (script) => startChatServer(script),
    createEnv: createOpencodeEnv,
    fixtureDir: dir('opencode'),
  },
  scenarios: [
    {
      name: 'auth-401-logged',
      made: 'HTTP 401 invalid_api_key "Incorrect API key provided" to every call',
      script: () => ({
        error: { status: 401, type: 'invalid_api_key', message: 'Incorrect API key provided' },
      }),
      timeoutMs: 45_000,
    },
    {
      name: 'rate-limit-429-logged',
      made: 'HTTP 429 rate_limit_exceeded "Rate limit reached for requests" to every call',
      script: () => ({
        error: { status: 429, type: 'rate_limit_exceeded', message: 'Rate limit reached for requests' },
      }),
      timeoutMs: 45_000,
    },
    {
      name: 'overloaded-529-logged',
      made: 'HTTP 529 overloaded_error "Overloaded" to every call',
      script: () => ({ error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }),
      timeoutMs: 45_000,
    },
    {
      name: 'server-error-500-logged',
      made: 'HTTP 500 server_error "Internal server error" to every call',
      script: () => ({ error: { status: 500, type: 'server_error', message: 'Internal server error' } }),
      timeoutMs: 45_000,
    },
    {
      name: 'unavailable-503-logged',
      made: 'HTTP 503 "Service Unavailable" to every call',
      script: () => ({ error: { status: 503, message: 'Service Unavailable' } }),
      timeoutMs: 45_000,
    },
    {
      name: 'unreachable-logged',
      made: 'the provider baseURL at a closed port on 127.0.0.1 (connection refused)',
      timeoutMs: 45_000,
    },
  ],
};

/**
 * Amp is not a devDependency (its package is a 100 MB binary): record with one
 * installed by hand, `npm i @ampcode/cli@<version>`, and AMP_BINARY pointing at
 * it. Amp's own server is not a public API; a server that answers every call
 * with one status stands in for it, enough to record how Amp reports that status.
 */
const statusServer = async (status: number): Promise<ScriptedServer> => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: status === 401 ? 'Unauthorized' : 'Service Unavailable' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return plainServer(port, () => new Promise<void>((resolve) => server.close(() => resolve())));
};

const ampHome = async (url: string) => {
  const home = await makeTempDir('amp-home');
  return {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, AMP_API_KEY: 'sgamp_test', AMP_URL: url },
    binaryPath: process.env.AMP_BINARY ?? 'amp',
    cleanup: () => removeTempDir(home),
  };
};

let ampStatus = 401;
const amp: { recorder: OutsideRecorder; scenarios: OutsideScenario[] } = {
  recorder: {
    adapter: ampAdapter,
    startServer: () => statusServer(ampStatus),
    createEnv: ampHome,
    fixtureDir: dir('amp'),
  },
  scenarios: [
    {
      name: 'no-key',
      made: 'no AMP_API_KEY and no stored login (stdin holds the prompt, so the login flow reads it)',
      script: () => ({ text: 'unused' }),
      env: ({ AMP_API_KEY: _key, ...env }) => env,
    },
    {
      name: 'auth-401',
      made: 'AMP_URL at a server answering every call with HTTP 401',
      script: () => {
        ampStatus = 401;
        return { text: 'unused' };
      },
    },
    {
      name: 'unavailable-503',
      made: 'AMP_URL at a server answering every call with HTTP 503',
      script: () => ({ text: 'unused' }),
    },
    { name: 'unreachable', made: 'AMP_URL at a closed port on 127.0.0.1 (connection refused)' },
  ],
};

const agents = [claude, codex, gemini, opencode, amp];
const only = process.env.RECORD_SCENARIOS?.split(',');

for (const agent of agents) {
  describe.runIf(recordingRequested(agent.recorder.adapter.name))(
    `record ${agent.recorder.adapter.displayName} outside failures`,
    () => {
      for (const scenario of agent.scenarios) {
        it.runIf(!only || only.includes(scenario.name))(scenario.name, { timeout: 300_000 }, async () => {
          ampStatus = scenario.name === 'unavailable-503' ? 503 : 401;
          const end = await recordOutside(agent.recorder, scenario);
          expect(end.stopReason).not.toBe('spawn-error');
        });
      }
    },
  );
}
