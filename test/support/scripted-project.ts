/** A throwaway git repository with a scripted model server and the real Claude Code pointed at it. */
import { type AnthropicServer, startAnthropicServer } from './anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from './claude-env.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';
import type { Script } from './model-script.js';
import { type CliResult, runRalph } from './ralph-cli.js';

export interface AgentRunOptions {
  onSpawn?: (pid: number) => void;
  env?: NodeJS.ProcessEnv;
}

export interface ScriptedProject {
  repo: GitFixture;
  server: AnthropicServer;
  claude: ClaudeTestEnv;
  /** Runs `ralph <args>` in the project with the scripted agent. */
  ralphWithAgent(args: string[], options?: AgentRunOptions): Promise<CliResult>;
  cleanup(): Promise<void>;
}

export async function createScriptedProject(
  script: Script,
  files: Record<string, string>,
): Promise<ScriptedProject> {
  const server = await startAnthropicServer(script);
  const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const repo = await createGitFixture({ files: { 'README.md': '# demo\n', ...files } });
  return {
    repo,
    server,
    claude,
    ralphWithAgent: (args, options = {}) =>
      runRalph(args, {
        cwd: repo.dir,
        env: { ...claude.env, ...options.env, RALPH_AGENT_PATH: claude.binaryPath },
        ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
      }),
    cleanup: async () => {
      await server.close();
      await claude.cleanup();
      await repo.cleanup();
    },
  };
}
