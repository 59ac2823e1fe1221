import type { NotReady } from '../adapter.js';
import { defineAdapter } from '../define-adapter.js';
import { createClaudeParser } from './claude-parser.js';

const ROOT_WITHOUT_SANDBOX: NotReady = {
  ok: false,
  kind: 'not-startable',
  reason: 'Claude Code refuses --dangerously-skip-permissions as root',
  fix: [
    'set IS_SANDBOX=1 in the environment (only inside a container or VM you are willing to let the agent change), or run as a normal user.',
  ],
};

/** Claude Code's own rule: as root it allows skipping permissions only in a declared sandbox. */
export function rootAllowed(env: NodeJS.ProcessEnv): boolean {
  const bubblewrap = env.CLAUDE_CODE_BUBBLEWRAP;
  return env.IS_SANDBOX === '1' || (bubblewrap !== undefined && bubblewrap !== '' && bubblewrap !== '0');
}

export const claudeAdapter = defineAdapter({
  name: 'claude',
  displayName: 'Claude Code',
  defaultBinary: 'claude',
  install: 'npm i -g @anthropic-ai/claude-code',
  baseArgs: ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
  modelFlag: '--model',
  // `claude -p` reads the prompt on stdin when no prompt argument is given.
  prompt: { kind: 'argument', args: (prompt) => ['--', prompt] },
  createParser: createClaudeParser,
  login: 'run `claude` and log in with /login, or set ANTHROPIC_API_KEY',
  apiBase: (env) => env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
  resumeArgs: (sessionId) => [`--resume=${sessionId}`],
  ready: (ctx) => (ctx.isRoot && !rootAllowed(ctx.env) ? ROOT_WITHOUT_SANDBOX : null),
});
