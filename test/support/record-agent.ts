/**
 * Records one real agent CLI run against a scripted server: the CLI's stdout,
 * byte for byte, becomes a fixture for the stream parser's tests.
 */
import { rm } from 'node:fs/promises';
import type { AgentAdapter } from '../../src/agents/adapter.js';
import { type AgentRunResult, runAgent } from '../../src/agents/run-agent.js';
import { createGitFixture } from './git-fixture.js';
import type { Script } from './model-script.js';
import type { ScriptedServer } from './scripted-server.js';

/** `RECORD_AGENT_FIXTURES=1` records every agent; `=codex,gemini` only those. */
export function recordingRequested(agent: string): boolean {
  const wanted = process.env.RECORD_AGENT_FIXTURES ?? '';
  return wanted === '1' || wanted.split(',').includes(agent);
}

export interface AgentUnderTest {
  env: NodeJS.ProcessEnv;
  binaryPath: string;
  /** Arguments that point the CLI at the server. */
  args?: string[];
  model?: string;
  cleanup(): Promise<void>;
}

export interface Recording {
  name: string;
  /** Made from the repo directory, for tools that want absolute paths. */
  script: (repoDir: string) => Script;
  prompt?: string;
  extraArgs?: string[];
  /** For CLIs that stay up after an error: silence this long ends the recording. */
  idleTimeoutMs?: number;
  /** For CLIs that retry for ever, saying so: the recording ends after this long (default 240 s). */
  timeoutMs?: number;
}

export interface RecordOptions {
  adapter: AgentAdapter;
  startServer: (script: Script) => Promise<ScriptedServer>;
  createEnv: (serverUrl: string) => Promise<AgentUnderTest>;
  /** Where `<name>.jsonl` goes. */
  fixtureDir: string;
}

export async function recordAgentRun(options: RecordOptions, recording: Recording): Promise<AgentRunResult> {
  const repo = await createGitFixture();
  const server = await options.startServer(recording.script(repo.dir));
  const agent = await options.createEnv(server.url);
  const rawLogPath = `${options.fixtureDir}/${recording.name}.jsonl`;
  try {
    await rm(rawLogPath, { force: true });
    return await runAgent({
      binaryPath: agent.binaryPath,
      adapter: options.adapter,
      invocation: options.adapter.buildInvocation({
        prompt: recording.prompt ?? 'Implement US-001 and commit it.',
        ...(agent.model ? { model: agent.model } : {}),
        extraArgs: [...(agent.args ?? []), ...(recording.extraArgs ?? [])],
      }),
      cwd: repo.dir,
      env: agent.env,
      timeoutMs: recording.timeoutMs ?? 240_000,
      idleTimeoutMs: recording.idleTimeoutMs ?? 60_000,
      rawLogPath,
      onEvent: () => undefined,
      killGraceMs: 1000,
    });
  } finally {
    await server.close();
    await agent.cleanup();
    await repo.cleanup();
  }
}
