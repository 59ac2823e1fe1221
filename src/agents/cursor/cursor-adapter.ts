import { defineAdapter } from '../define-adapter.js';
import { createCursorParser } from './cursor-parser.js';

export const cursorAdapter = defineAdapter({
  name: 'cursor',
  displayName: 'Cursor CLI',
  defaultBinary: 'cursor-agent',
  install: 'curl https://cursor.com/install -fsS | bash',
  /**
   * `--force` runs every command without asking (ralph verifies the work and
   * rolls it back); `--trust` trusts the workspace, which headless runs
   * otherwise stop at for a folder they have not seen (ralph's worktrees are new).
   */
  baseArgs: ['--print', '--output-format', 'stream-json', '--force', '--trust'],
  modelFlag: '--model',
  // With no prompt argument, print mode reads the prompt from a piped stdin.
  prompt: { kind: 'argument', args: (prompt) => ['--', prompt] },
  createParser: createCursorParser,
  login: 'run `cursor-agent login`, or set CURSOR_API_KEY',
  apiBase: () => 'https://api2.cursor.sh',
  resumeArgs: (sessionId) => ['--resume', sessionId],
});
