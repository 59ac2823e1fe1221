/**
 * One real agent CLI in a throwaway git repository, its model a scripted
 * server, run through `runAgent` as the loop runs it.
 */
import { join } from 'node:path';
import type { AgentAdapter } from '../../src/agents/adapter.js';
import type { AgentEvent } from '../../src/agents/agent-event.js';
import { type AgentRunResult, runAgent } from '../../src/agents/run-agent.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';
import type { Script } from './model-script.js';
import type { AgentUnderTest } from './record-agent.js';
import type { ScriptedServer } from './scripted-server.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface HarnessOptions<A extends AgentUnderTest> {
  adapter: AgentAdapter;
  startServer: (script: Script) => Promise<ScriptedServer>;
  createEnv: (serverUrl: string) => Promise<A>;
  /** Made from the repo directory, for tools that want absolute paths. */
  script: (repoDir: string) => Script;
}

export interface AgentRun {
  result: AgentRunResult;
  events: AgentEvent[];
  rawLogPath: string;
}

export interface Harness<A extends AgentUnderTest> {
  repo: GitFixture;
  server: ScriptedServer;
  agent: A;
  run(
    prompt: string,
    options?: { idleTimeoutMs?: number; name?: string; extraArgs?: string[] },
  ): Promise<AgentRun>;
  cleanup(): Promise<void>;
}

export async function createHarness<A extends AgentUnderTest>(
  options: HarnessOptions<A>,
): Promise<Harness<A>> {
  const repo = await createGitFixture();
  const server = await options.startServer(options.script(repo.dir));
  const agent = await options.createEnv(server.url);
  const logs = await makeTempDir('agent-logs');
  return {
    repo,
    server,
    agent,
    async run(prompt, runOptions = {}) {
      const events: AgentEvent[] = [];
      const rawLogPath = join(logs, 'iterations', `${runOptions.name ?? '1'}.jsonl`);
      const result = await runAgent({
        binaryPath: agent.binaryPath,
        adapter: options.adapter,
        invocation: options.adapter.buildInvocation({
          prompt,
          ...(agent.model ? { model: agent.model } : {}),
          extraArgs: [...(agent.args ?? []), ...(runOptions.extraArgs ?? [])],
        }),
        cwd: repo.dir,
        env: agent.env,
        timeoutMs: 90_000,
        idleTimeoutMs: runOptions.idleTimeoutMs ?? 60_000,
        rawLogPath,
        onEvent: (event) => events.push(event),
        killGraceMs: 1000,
      });
      return { result, events, rawLogPath };
    },
    async cleanup() {
      await server.close();
      await agent.cleanup();
      await repo.cleanup();
      await removeTempDir(logs);
    },
  };
}

export const textsOf = (events: AgentEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'assistant-text' ? [e.text] : []));
