import { stat } from 'node:fs/promises';
import { defineAdapter } from '../define-adapter.js';
import { createCodexParser } from './codex-parser.js';

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export const codexAdapter = defineAdapter({
  name: 'codex',
  displayName: 'Codex',
  defaultBinary: 'codex',
  install: 'npm i -g @openai/codex',
  /**
   * Full access without prompts (ralph verifies the work and rolls it back), no
   * refusal outside a trusted git repo (a worktree may be new to Codex).
   */
  baseArgs: ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check'],
  modelFlag: '--model',
  // Codex appends whatever it reads on stdin to an argument prompt, so stdin stays empty then;
  // `-` makes `codex exec` read the whole prompt from stdin.
  prompt: { kind: 'argument', args: (prompt) => ['--', prompt], stdinArgs: ['-'] },
  createParser: createCodexParser,
  login: 'run `codex login`, or set OPENAI_API_KEY',
  // A provider given with `-c model_providers.<id>={…base_url="…"}` names its own API.
  apiBase: (env, extraArgs) =>
    extraArgs.map((arg) => /\bbase_url\s*=\s*"([^"]+)"/.exec(arg)?.[1]).find((url) => url !== undefined) ??
    (env.OPENAI_BASE_URL || 'https://api.openai.com/v1'),
  resumeArgs: (sessionId) => ['resume', sessionId],
  async ready(ctx) {
    const codexHome = ctx.env.CODEX_HOME;
    if (codexHome === undefined || codexHome === '' || (await isDirectory(codexHome))) return null;
    return {
      ok: false,
      kind: 'not-startable',
      reason: `Codex refuses to start: CODEX_HOME is set to ${codexHome}, which is not a directory`,
      fix: ['create it, or unset CODEX_HOME to use ~/.codex'],
    };
  },
});
