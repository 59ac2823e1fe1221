import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_BINARY } from '../../../test/support/claude-env.js';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import { MAX_PROMPT_ARG_BYTES } from '../define-adapter.js';
import { getAdapter } from '../registry.js';
import { claudeAdapter } from './claude-adapter.js';

const BASE = ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];

describe('claudeAdapter.buildInvocation', () => {
  it('puts the prompt last, after --, so a leading dash is not an option', () => {
    expect(claudeAdapter.buildInvocation({ prompt: '- [ ] do it' })).toEqual({
      args: [...BASE, '--', '- [ ] do it'],
      env: {},
      stdin: 'ignore',
    });
  });

  it('adds the model and extra arguments before the prompt', () => {
    const { args } = claudeAdapter.buildInvocation({
      prompt: 'p',
      model: 'sonnet',
      extraArgs: ['--max-turns', '5'],
    });
    expect(args).toEqual([...BASE, '--model', 'sonnet', '--max-turns', '5', '--', 'p']);
  });

  it('sends a prompt too big for one argument on stdin', () => {
    const prompt = 'é'.repeat(MAX_PROMPT_ARG_BYTES / 2 + 1);
    const invocation = claudeAdapter.buildInvocation({ prompt });
    expect(invocation.args).toEqual(BASE);
    expect(invocation.stdin).toEqual({ text: prompt });
  });
});

describe('registry', () => {
  it('knows claude and nothing it cannot run', () => {
    expect(getAdapter('claude')).toBe(claudeAdapter);
    expect(getAdapter('nope')).toBeUndefined();
    expect(claudeAdapter).toMatchObject({
      name: 'claude',
      displayName: 'Claude Code',
      defaultBinary: 'claude',
    });
  });
});

describe('claude preflight', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('preflight');
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  const script = async (name: string, body: string, mode = 0o755) => {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, mode);
    return path;
  };
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ PATH: `${dir}:/usr/bin:/bin`, ...extra });

  it('accepts the pinned Claude Code and reports its version', async () => {
    const result = await claudeAdapter.preflight({ binaryPath: CLAUDE_BINARY, env: env(), isRoot: false });
    expect(result).toEqual({ ok: true, version: '2.1.197' });
  });

  it('finds a bare name on PATH', async () => {
    await script('claude', 'echo "9.8.7 (Claude Code)"');
    expect(await claudeAdapter.preflight({ binaryPath: 'claude', env: env(), isRoot: false })).toEqual({
      ok: true,
      version: '9.8.7',
    });
  });

  it('fails for a missing or non-executable binary', async () => {
    const missing = await claudeAdapter.preflight({
      binaryPath: join(dir, 'claude'),
      env: env(),
      isRoot: false,
    });
    expect(missing).toMatchObject({ ok: false });
    const plain = await script('claude', 'echo 1.0.0', 0o644);
    const notExecutable = await claudeAdapter.preflight({ binaryPath: plain, env: env(), isRoot: false });
    expect(notExecutable.ok).toBe(false);
    if (!notExecutable.ok) expect(notExecutable.reason).toContain('not found or not executable');
  });

  it('fails when --version fails, with its stderr', async () => {
    const broken = await script('claude', 'echo "cannot load runtime" >&2; exit 1');
    const result = await claudeAdapter.preflight({ binaryPath: broken, env: env(), isRoot: false });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain('cannot load runtime');
  });

  it('refuses root without IS_SANDBOX=1, as Claude Code itself would', async () => {
    const fake = await script('claude', 'echo 2.0.0');
    expect(await claudeAdapter.preflight({ binaryPath: fake, env: env(), isRoot: true })).toEqual({
      ok: false,
      reason:
        'Claude Code refuses --dangerously-skip-permissions as root; set IS_SANDBOX=1 in the environment (only inside a container or VM you are willing to let the agent change), or run as a normal user.',
    });
    expect(
      await claudeAdapter.preflight({ binaryPath: fake, env: env({ IS_SANDBOX: 'true' }), isRoot: true }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await claudeAdapter.preflight({ binaryPath: fake, env: env({ IS_SANDBOX: '1' }), isRoot: true }),
    ).toEqual({
      ok: true,
      version: '2.0.0',
    });
  });
});
