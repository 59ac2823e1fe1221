/**
 * A throwaway project run by the built `ralph` CLI with a real agent CLI,
 * its model a scripted server. The redirect to the
 * server travels the way a user would configure it: `.ralph/config.yaml`
 * (`agent.path`, `agent.model`, `agent.args.<provider>`, `agent.env.<provider>`)
 * plus the environment ralph is started in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAnthropicServer } from './anthropic-server.js';
import { startChatServer } from './chat-server.js';
import { createClaudeEnv } from './claude-env.js';
import { CODEX_KEY_VAR, createCodexEnv } from './codex-env.js';
import { createGeminiEnv } from './gemini-env.js';
import { startGeminiServer } from './gemini-server.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';
import type { Script } from './model-script.js';
import { createOpencodeEnv } from './opencode-env.js';
import { type CliResult, runRalph } from './ralph-cli.js';
import { startResponsesServer } from './responses-server.js';
import type { PausableServer } from './scripted-server.js';
import { type StoryPlan, type StoryScript, storyScript } from './story-script.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export type LoopAgent = 'claude' | 'codex' | 'gemini' | 'opencode';

interface AgentSetup {
  server: PausableServer;
  binaryPath: string;
  /** What ralph itself is started with (HOME and the like). */
  processEnv: NodeJS.ProcessEnv;
  /** HOME of the run: the user's home as the agent sees it. */
  home: string;
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

async function setUp(agent: LoopAgent, script: Script, options: AgentLoopOptions): Promise<AgentSetup> {
  switch (agent) {
    case 'claude': {
      const server = await startAnthropicServer(script);
      const env = await createClaudeEnv(server.url, options.ownRetries ? {} : { maxRetries: 0 });
      // A home of its own beside CLAUDE_CONFIG_DIR, as a user's is.
      const home = await makeTempDir('claude-home');
      return {
        server,
        binaryPath: env.binaryPath,
        processEnv: { ...env.env, HOME: home },
        home,
        configEnv: {},
        configArgs: [],
        cleanup: async () => {
          await env.cleanup();
          await removeTempDir(home);
        },
      };
    }
    case 'codex': {
      const server = await startResponsesServer(script);
      const env = await createCodexEnv(server.url, { ownRetries: options.ownRetries ?? false });
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, [CODEX_KEY_VAR, 'CODEX_HOME']),
        home: env.home,
        configArgs: env.args,
        model: env.model,
        cleanup: env.cleanup,
      };
    }
    case 'gemini': {
      const server = await startGeminiServer(script);
      const env = await createGeminiEnv(server.url);
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, ['GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY']),
        home: env.home,
        configArgs: [],
        cleanup: env.cleanup,
      };
    }
    case 'opencode': {
      const server = await startChatServer(script);
      const env = await createOpencodeEnv(server.url);
      return {
        server,
        binaryPath: env.binaryPath,
        ...split(env.env, ['OPENCODE_CONFIG_CONTENT']),
        home: env.home,
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
  setup: Omit<AgentSetup, 'server' | 'cleanup' | 'processEnv' | 'home'>,
): string {
  const q = (text: string) => JSON.stringify(text);
  const lines = ['agent:', `  path: ${q(setup.binaryPath)}`];
  if (setup.model) lines.push(`  model: ${q(setup.model)}`);
  lines.push('  args:', `    ${agent}: [${setup.configArgs.map(q).join(', ')}]`);
  const env = Object.entries(setup.configEnv);
  lines.push('  env:', `    ${agent}:${env.length === 0 ? ' {}' : ''}`);
  for (const [name, value] of env) lines.push(`      ${name}: ${q(value)}`);
  return `${lines.join('\n')}\n`;
}

export interface AgentLoopProject {
  repo: GitFixture;
  server: PausableServer;
  stories: StoryScript;
  /** HOME of the run. */
  home: string;
  /** The environment ralph is started in (the agent's variables, HOME). */
  env: NodeJS.ProcessEnv;
  /** `ralph run <args> --agent <agent>` in the project (`env` on top of the agent's). */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** Any `ralph` command in the project, with the agent's environment. */
  ralph(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  read(path: string): Promise<string>;
  cleanup(): Promise<void>;
}

export interface AgentLoopOptions {
  /** Wraps the stories' script: failures before it, a key refused. */
  wrap?: (script: Script) => Script;
  /** The CLIs' own retries of a failed request at their defaults (Claude Code's and Codex's are off otherwise). */
  ownRetries?: boolean;
}

export async function createAgentLoopProject(
  agent: LoopAgent,
  files: Record<string, string>,
  plan: StoryPlan,
  options: AgentLoopOptions = {},
): Promise<AgentLoopProject> {
  const stories = storyScript(plan);
  const setup = await setUp(agent, options.wrap ? options.wrap(stories.script) : stories.script, options);
  const repo = await createGitFixture({
    files: { 'README.md': '# demo\n', '.ralph/config.yaml': agentConfigYaml(agent, setup), ...files },
  });
  return {
    repo,
    server: setup.server,
    stories,
    home: setup.home,
    env: setup.processEnv,
    run: (args, env = {}) =>
      runRalph(['run', ...args, '--agent', agent], {
        cwd: repo.dir,
        env: { ...setup.processEnv, ...env },
        timeoutMs: 300_000,
      }),
    ralph: (args, env = {}) =>
      runRalph(args, { cwd: repo.dir, env: { ...setup.processEnv, ...env }, timeoutMs: 300_000 }),
    read: (path) => readFile(join(repo.dir, path), 'utf8'),
    cleanup: async () => {
      await setup.server.close();
      await setup.cleanup();
      await repo.cleanup();
    },
  };
}
