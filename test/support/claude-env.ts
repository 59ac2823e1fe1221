/** Running the real Claude Code CLI against the scripted server, isolated from the machine's config. */
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** The pinned `claude` binary from this repo's devDependencies. */
export const CLAUDE_BINARY = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));

export interface ClaudeTestEnv {
  env: NodeJS.ProcessEnv;
  binaryPath: string;
  /** CLAUDE_CONFIG_DIR and HOME of the run. */
  configDir: string;
  cleanup(): Promise<void>;
}

export interface ClaudeEnvOptions {
  /** CLAUDE_CODE_MAX_RETRIES; Claude's default retries a 401/429/529 for a minute or more. */
  maxRetries?: number;
  extra?: Record<string, string>;
}

export async function createClaudeEnv(
  serverUrl: string,
  options: ClaudeEnvOptions = {},
): Promise<ClaudeTestEnv> {
  const configDir = await makeTempDir('claude-config');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    IS_SANDBOX: '1',
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CONFIG_DIR: configDir,
    HOME: configDir,
    DISABLE_AUTOUPDATER: '1',
    ...(options.maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries) }),
    ...options.extra,
  };
  return { env, binaryPath: CLAUDE_BINARY, configDir, cleanup: () => removeTempDir(configDir) };
}
