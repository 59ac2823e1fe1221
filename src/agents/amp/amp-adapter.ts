import { defineAdapter } from '../define-adapter.js';
import { createAmpParser } from './amp-parser.js';

export const ampAdapter = defineAdapter({
  name: 'amp',
  displayName: 'Amp',
  defaultBinary: 'amp',
  install: 'npm i -g @ampcode/cli',
  /**
   * Execute mode with the prompt on stdin (`echo … | amp -x`), so a prompt that
   * starts with `-` or is very long needs no special case. `--dangerously-allow-all`
   * runs every tool without asking: ralph verifies the work and rolls it back.
   */
  baseArgs: ['--execute', '--stream-json', '--dangerously-allow-all'],
  // Amp picks its model itself (its `--mode`).
  modelFlag: null,
  prompt: { kind: 'stdin' },
  createParser: createAmpParser,
  login: 'run `amp login`, or set AMP_API_KEY',
  apiBase: (env) => env.AMP_URL || 'https://ampcode.com',
  resumeArgs: (sessionId) => ['threads', 'continue', sessionId],
});
