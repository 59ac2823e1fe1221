/**
 * A throwaway project run by the built `ralph` CLI with a real agent CLI
 * other than Claude Code, its model a scripted server. The redirect to the
 * server travels the way a user would configure it: `.ralph/config.yaml`
 * (`agent.path`, `agent.model`, `agent.args.<provider>`, `agent.env.<provider>`)
 * plus the environment ralph is started in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startChatServer } from './chat-server.js';
import { CODEX_KEY_VAR, createCodexEnv } from './codex-env.js';
import { createGeminiEnv } from './gemini-env.js';
import { startGeminiServer } from './gemini-server.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';
import { createOpencodeEnv } from './opencode-env.js';
import { type CliResult, runRalph } from './ralph-cli.js';
import { startResponsesServer } from './responses-server.js';
import type { ScriptedServer } from './scripted-server.js';
import { type StoryPlan, type StoryScript, storyScript } from './story-script.js';

export type LoopAgent = 'codex' | 'gemini' | 'opencode';

interface AgentSetup {
  server: ScriptedServer;
  binaryPath: string;
  /** What ralph itself is started with (HOME and the like). */
  processEnv: NodeJS.ProcessEnv;
  /** `agent.env.<provider>` in the config. */
  configEnv: Record<string, string>;
  configArgs: string[];
  model?: string;
  cleanup(): Promise<void>;
}

/** Moves the named variables out of the process environment into the config's `agent.env`. */
function split(env: NodeJS.ProcessEnv, toConfig: readonly string[]) {
  const processEnv: NodeJS.ProcessEnv = { ...env };
  const configEnv: Record<string, string> = {};
  for (const name of toConfig) {
    const value = env[name];
    if (value !== undefined) configEnv[name] = value;
    delete processEnv[name];
  }
  return { processEnv, configEnv };
}

async function setUp(agent: LoopAgent, stories: StoryScript): Promise<AgentSetup> {
  switch (agent) {
    case 'codex': {
      const server = await startResponsesServer(stories.script);
      const env = await createCodexEnv(server.url);
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, [CODEX_KEY_VAR, 'CODEX_HOME']),
        configArgs: env.args,
        model: env.model,
        cleanup: env.cleanup,
      };
    }
    case 'gemini': {
      const server = await startGeminiServer(stories.script);
      const env = await createGeminiEnv(server.url);
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, ['GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY']),
        configArgs: [],
        cleanup: env.cleanup,
      };
    }
    case 'opencode': {
      const server = await startChatServer(stories.script);
      const env = await createOpencodeEnv(server.url);
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, ['OPENCODE_CONFIG_CONTENT']),
        configArgs: [],
        model: env.model,
        cleanup: env.cleanup,
      };
    }
  }
}

/** `.ralph/config.yaml` for the agent; JSON strings are valid YAML scalars, whatever they hold. */
export function agentConfigYaml(
  agent: LoopAgent,
  setup: Omit<AgentSetup, 'server' | 'cleanup' | 'processEnv'>,
): string {
  const q = (text: string) => JSON.stringify(text);
  const lines = ['agent:', `  path: ${q(setup.binaryPath)}`];
  if (setup.model) lines.push(`  model: ${q(setup.model)}`);
  lines.push('  args:', `    ${agent}: [${setup.configArgs.map(q).join(', ')}]`);
  lines.push('  env:', `    ${agent}:`);
  for (const [name, value] of Object.entries(setup.configEnv)) lines.push(`      ${name}: ${q(value)}`);
  return `${lines.join('\n')}\n`;
}

export interface AgentLoopProject {
  repo: GitFixture;
  server: ScriptedServer;
  stories: StoryScript;
  /** `ralph run <args> --agent <agent>` in the project. */
  run(args: string[]): Promise<CliResult>;
  read(path: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createAgentLoopProject(
  agent: LoopAgent,
  files: Record<string, string>,
  plan: StoryPlan,
): Promise<AgentLoopProject> {
  const stories = storyScript(plan);
  const setup = await setUp(agent, stories);
  const repo = await createGitFixture({
    files: { 'README.md': '# demo\n', '.ralph/config.yaml': agentConfigYaml(agent, setup), ...files },
  });
  return {
    repo,
    server: setup.server,
    stories,
    run: (args) =>
      runRalph(['run', ...args, '--agent', agent], {
        cwd: repo.dir,
        env: setup.processEnv,
        timeoutMs: 300_000,
      }),
    read: (path) => readFile(join(repo.dir, path), 'utf8'),
    cleanup: async () => {
      await setup.server.close();
      await setup.cleanup();
      await repo.cleanup();
    },
  };
}
