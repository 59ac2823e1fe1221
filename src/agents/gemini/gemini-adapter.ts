import { defineAdapter } from '../define-adapter.js';
import { findGeminiAuth } from './gemini-auth.js';
import { createGeminiParser, geminiStderrRetry } from './gemini-parser.js';

export const geminiAdapter = defineAdapter({
  name: 'gemini',
  displayName: 'Gemini CLI',
  defaultBinary: 'gemini',
  install: 'npm i -g @google/gemini-cli',
  /**
   * `--yolo` approves every tool call (ralph verifies the work and rolls it
   * back); `--skip-trust` trusts the working directory for this run only:
   * in an untrusted folder Gemini CLI silently drops `--yolo` back to asking,
   * and a headless run then cannot use its tools (ralph's worktrees are new folders).
   */
  baseArgs: ['--output-format', 'stream-json', '--yolo', '--skip-trust'],
  modelFlag: '--model',
  // The `=` form keeps a prompt that starts with `-` from being read as an option;
  // without a prompt argument, a piped stdin is the prompt.
  prompt: { kind: 'argument', args: (prompt) => [`--prompt=${prompt}`] },
  createParser: createGeminiParser,
  login: 'run `gemini` and log in, or set GEMINI_API_KEY',
  // Gemini CLI's FatalAuthenticationError.
  endHints: { exitCodes: { 41: 'auth' } },
  apiBase: (env) => env.GOOGLE_GEMINI_BASE_URL || 'https://generativelanguage.googleapis.com',
  resumeArgs: (sessionId) => ['--resume', sessionId],
  // Gemini CLI's stream says nothing while it retries; its stderr says "Attempt 2 failed with status 503. Retrying…".
  stderrRetry: geminiStderrRetry,
  async ready(ctx) {
    if ((await findGeminiAuth(ctx.env, process.cwd())) !== undefined) return null;
    return {
      ok: false,
      kind: 'auth',
      reason: 'Gemini CLI has no auth method for headless runs',
      fix: [
        'set GEMINI_API_KEY (or GOOGLE_GENAI_USE_VERTEXAI=true with its project settings), ' +
          'or run `gemini` once interactively and log in, which records the method in ~/.gemini/settings.json',
      ],
    };
  },
});
