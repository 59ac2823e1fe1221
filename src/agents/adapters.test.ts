/** The command lines every adapter builds, and the registry that holds them. */
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../state/config-schema.js';
import { ampAdapter } from './amp/amp-adapter.js';
import { codexAdapter } from './codex/codex-adapter.js';
import { cursorAdapter } from './cursor/cursor-adapter.js';
import { MAX_PROMPT_ARG_BYTES } from './define-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { opencodeAdapter } from './opencode/opencode-adapter.js';
import { adapterNames, getAdapter } from './registry.js';

const dashed = '- [ ] do it';
const big = 'é'.repeat(MAX_PROMPT_ARG_BYTES / 2 + 1);

describe('registry', () => {
  it('has an adapter for every provider the config accepts, under its own name', () => {
    expect(adapterNames().sort()).toEqual([...PROVIDERS].sort());
    for (const name of PROVIDERS) expect(getAdapter(name)?.name).toBe(name);
    expect(getAdapter('nope')).toBeUndefined();
  });

  it('names the binaries users install', () => {
    expect(PROVIDERS.map((p) => getAdapter(p)?.defaultBinary)).toEqual([
      'claude',
      'codex',
      'opencode',
      'gemini',
      'amp',
      'cursor-agent',
    ]);
  });
});

describe('codex invocation', () => {
  const BASE = ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check'];
  it('puts the prompt last after --, stdin empty', () => {
    expect(
      codexAdapter.buildInvocation({ prompt: dashed, model: 'gpt-5', extraArgs: ['-c', 'x=1'] }),
    ).toEqual({
      args: [...BASE, '--model', 'gpt-5', '-c', 'x=1', '--', dashed],
      env: {},
      stdin: 'ignore',
    });
  });
  it('reads a prompt too big for one argument from stdin (`-`)', () => {
    expect(codexAdapter.buildInvocation({ prompt: big })).toEqual({
      args: [...BASE, '-'],
      env: {},
      stdin: { text: big },
    });
  });
});

describe('gemini invocation', () => {
  const BASE = ['--output-format', 'stream-json', '--yolo', '--skip-trust'];
  it('passes the prompt in the --prompt= form, so a leading dash is not an option', () => {
    expect(geminiAdapter.buildInvocation({ prompt: dashed, model: 'gemini-2.5-pro' })).toEqual({
      args: [...BASE, '--model', 'gemini-2.5-pro', `--prompt=${dashed}`],
      env: {},
      stdin: 'ignore',
    });
  });
  it('sends a big prompt on stdin', () => {
    expect(geminiAdapter.buildInvocation({ prompt: big })).toEqual({
      args: BASE,
      env: {},
      stdin: { text: big },
    });
  });
});

describe('opencode invocation', () => {
  it('always sends the prompt on stdin', () => {
    expect(
      opencodeAdapter.buildInvocation({
        prompt: dashed,
        model: 'anthropic/claude-sonnet-4',
        extraArgs: ['--agent', 'build'],
      }),
    ).toEqual({
      args: [
        'run',
        '--format',
        'json',
        '--auto',
        '--print-logs',
        '--log-level',
        'WARN',
        '--model',
        'anthropic/claude-sonnet-4',
        '--agent',
        'build',
      ],
      env: {},
      stdin: { text: dashed },
    });
  });
});

describe('amp invocation', () => {
  it('runs execute mode with the prompt on stdin, and passes no model', () => {
    expect(ampAdapter.buildInvocation({ prompt: dashed, model: 'ignored' })).toEqual({
      args: ['--execute', '--stream-json', '--dangerously-allow-all'],
      env: {},
      stdin: { text: dashed },
    });
  });
});

describe('cursor invocation', () => {
  const BASE = ['--print', '--output-format', 'stream-json', '--force', '--trust'];
  it('puts the prompt last after --', () => {
    expect(cursorAdapter.buildInvocation({ prompt: dashed, model: 'sonnet-4' })).toEqual({
      args: [...BASE, '--model', 'sonnet-4', '--', dashed],
      env: {},
      stdin: 'ignore',
    });
  });
  it('sends a big prompt on stdin', () => {
    expect(cursorAdapter.buildInvocation({ prompt: big }).stdin).toEqual({ text: big });
  });
});
