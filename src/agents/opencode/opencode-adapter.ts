import { defineAdapter } from '../define-adapter.js';
import { opencodeStderrRetry } from './opencode-logs.js';
import { createOpencodeParser } from './opencode-parser.js';

export const opencodeAdapter = defineAdapter({
  name: 'opencode',
  displayName: 'OpenCode',
  defaultBinary: 'opencode',
  install: 'npm i -g opencode-ai',
  /**
   * `--auto` approves every permission the user's config does not explicitly
   * deny: a headless run has nobody to ask (ralph verifies the work and rolls
   * it back). `--print-logs --log-level WARN`: OpenCode's stream is silent
   * while it retries a failed API request, for ever; its log on stderr says
   * each failure (a few lines per attempt, none in a run that goes well).
   */
  baseArgs: ['run', '--format', 'json', '--auto', '--print-logs', '--log-level', 'WARN'],
  modelFlag: '--model',
  // `opencode run` re-quotes message arguments that contain spaces: the prompt always goes on stdin.
  prompt: { kind: 'stdin' },
  createParser: createOpencodeParser,
  login: 'run `opencode auth login` for the provider you use',
  // A custom provider names its API in the config given in OPENCODE_CONFIG_CONTENT; the built-in ones are not known here.
  apiBase: (env) => /"baseURL"\s*:\s*"([^"]+)"/.exec(env.OPENCODE_CONFIG_CONTENT ?? '')?.[1],
  resumeArgs: (sessionId) => ['--session', sessionId],
  stderrRetry: opencodeStderrRetry,
});
