/**
 * Records how each real agent CLI ends when the world outside fails it: the
 * API refusing the key, overloaded, erroring, rate limiting, or not there at
 * all. Each recording keeps the CLI's stdout byte for byte (`<name>.jsonl`,
 * as the stream fixtures do) and how the process ended (`<name>.end.json`:
 * exit code, signal, the end of stderr, the CLI's version and how it was
 * made), so the end-of-attempt classifier is tested on what the CLIs say.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AgentAdapter } from '../../src/agents/adapter.js';
import { readVersion } from '../../src/agents/binary.js';
import type { AgentRunResult } from '../../src/agents/run-agent.js';
import type { Script } from './model-script.js';
import { type AgentUnderTest, recordAgentRun } from './record-agent.js';
import type { ScriptedServer } from './scripted-server.js';

/** How a recorded run ended, beside its stdout. */
export interface RecordedEnd {
  agent: string;
  version: string;
  scenario: string;
  /** How it was made: the server's answer, the environment given. */
  made: string;
  exitCode: number | null;
  signal: string | null;
  stopReason: AgentRunResult['stopReason'];
  durationMs: number;
  stderr: string;
}

export interface OutsideScenario {
  name: string;
  made: string;
  /** The server's answer to every model call; absent: no server (a closed port). */
  script?: Script;
  /** Changes to the agent's environment (a key removed, retries set). */
  env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  extraArgs?: string[];
  idleTimeoutMs?: number;
  timeoutMs?: number;
}

export interface OutsideRecorder {
  adapter: AgentAdapter;
  startServer: (script: Script) => Promise<ScriptedServer>;
  createEnv: (serverUrl: string) => Promise<AgentUnderTest>;
  fixtureDir: string;
}

/** A port nothing listens on: taken from the OS, then let go. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A stand-in for a scripted server on `port` that records nothing: a closed port, or a server of the test's own. */
export function plainServer(
  port: number,
  close: () => Promise<void> = async () => undefined,
): ScriptedServer {
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    scriptErrors: [],
    modelCalls: () => [],
    close,
  };
}

/** A server that never answers: every model call goes to a closed port. */
const closedServer = async (): Promise<ScriptedServer> => plainServer(await closedPort());

export async function recordOutside(
  recorder: OutsideRecorder,
  scenario: OutsideScenario,
): Promise<RecordedEnd> {
  const startServer = scenario.script ? recorder.startServer : () => closedServer();
  const result = await recordAgentRun(
    {
      adapter: recorder.adapter,
      startServer,
      createEnv: async (url) => {
        const agent = await recorder.createEnv(url);
        return scenario.env ? { ...agent, env: scenario.env(agent.env) } : agent;
      },
      fixtureDir: recorder.fixtureDir,
    },
    {
      name: scenario.name,
      script: () => scenario.script ?? (() => ({ text: 'unreachable' })),
      ...(scenario.extraArgs ? { extraArgs: scenario.extraArgs } : {}),
      ...(scenario.idleTimeoutMs ? { idleTimeoutMs: scenario.idleTimeoutMs } : {}),
      ...(scenario.timeoutMs ? { timeoutMs: scenario.timeoutMs } : {}),
    },
  );
  const agent = await recorder.createEnv('http://127.0.0.1:9');
  const version = await readVersion(agent.binaryPath, agent.env);
  await agent.cleanup();
  const end: RecordedEnd = {
    agent: recorder.adapter.name,
    version: version.ok ? version.version : 'unknown',
    scenario: scenario.name,
    made: scenario.made,
    exitCode: result.exitCode,
    signal: result.signal,
    stopReason: result.stopReason,
    durationMs: result.durationMs,
    stderr: anonymise(result.stderr.slice(-4000)),
  };
  await writeFile(`${recorder.fixtureDir}/${scenario.name}.end.json`, `${JSON.stringify(end, null, 2)}\n`);
  return end;
}

/** Temporary folder names and this checkout's path change on every recording; they say nothing about the failure. */
const anonymise = (text: string): string =>
  text
    .replaceAll(process.cwd(), '<repo>')
    .replace(/\/tmp\/ralph-[\w-]+/g, '/tmp/ralph-…')
    .replace(/\/tmp\/gemini-client-error-\S*\.json/g, '/tmp/gemini-client-error-….json');
