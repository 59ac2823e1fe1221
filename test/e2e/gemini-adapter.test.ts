/**
 * The real Gemini CLI, driven through runAgent against the scripted Gemini
 * server: real tools, real files, real git commits; only the model is fake.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PROMPT_ARG_BYTES } from '../../src/agents/define-adapter.js';
import { geminiAdapter } from '../../src/agents/gemini/gemini-adapter.js';
import { createHarness, type Harness, textsOf } from '../support/agent-harness.js';
import { createGeminiEnv, GEMINI_TEST_SETTINGS, type GeminiTestEnv } from '../support/gemini-env.js';
import { startGeminiServer } from '../support/gemini-server.js';
import { type Script, scriptedTurns } from '../support/model-script.js';

let harness: Harness<GeminiTestEnv> | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const setup = async (script: Script, settings: Record<string, unknown> = GEMINI_TEST_SETTINGS) => {
  harness = await createHarness({
    adapter: geminiAdapter,
    startServer: startGeminiServer,
    createEnv: (url) => createGeminiEnv(url, { settings }),
    script: () => script,
  });
  return harness;
};

describe('Gemini CLI adapter end to end', () => {
  it('writes a file and commits it through its tools, reporting every step', async () => {
    const h = await setup(
      scriptedTurns([
        { tool: 'Write', input: { file_path: 'src/hello.txt', content: 'hello from the agent\n' } },
        { tool: 'Bash', input: { command: 'git add -A && git commit -q -m "feat: US-001 - Say hello"' } },
        { text: 'Done with the story. <ralph>DONE US-001</ralph>' },
      ]),
    );
    const prompt = '- Implement US-001: say hello. Commit when done.';
    const { result, events, rawLogPath } = await h.run(prompt);

    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(await readFile(join(h.repo.dir, 'src/hello.txt'), 'utf8')).toBe('hello from the agent\n');
    expect(await h.repo.subjects()).toEqual(['feat: US-001 - Say hello', 'chore: initial commit']);
    expect(await h.repo.git('status', '--porcelain')).toBe('');

    expect(h.server.modelCalls()[0]?.prompt).toBe(prompt);
    const tools = events.flatMap((e) => (e.type === 'tool-started' ? [[e.name, e.summary]] : []));
    expect(tools).toEqual([
      ['write_file', 'src/hello.txt'],
      ['run_shell_command', 'git add -A && git commit -q -m "feat: US-001 - Say hello"'],
    ]);
    // The server sent the final text in two chunks: one text, one signal.
    expect(textsOf(events)).toEqual(['Done with the story. <ralph>DONE US-001</ralph>']);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: true });
    expect(events.some((e) => e.type === 'usage' && e.inputTokens > 0)).toBe(true);

    const raw = await readFile(rawLogPath, 'utf8');
    const parser = geminiAdapter.createParser();
    expect(raw.split('\n').flatMap((line) => parser.parseLine(line))).toEqual(events);
    expect(events.some((e) => e.type === 'garbage')).toBe(false);
  });

  it('takes a prompt too big for one argument on stdin', async () => {
    const h = await setup(scriptedTurns([{ text: 'Read it all. <ralph>DONE US-009</ralph>' }]));
    const prompt = `Do US-009.\n${'x'.repeat(MAX_PROMPT_ARG_BYTES)}\nEnd of prompt.`;
    expect(geminiAdapter.buildInvocation({ prompt }).stdin).toEqual({ text: prompt });
    const { result, events } = await h.run(prompt);
    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(h.server.modelCalls()[0]?.prompt.trim()).toBe(prompt);
    expect(textsOf(events)).toEqual(['Read it all. <ralph>DONE US-009</ralph>']);
  });

  it('reports an API rate limit as an error event and a failed result', async () => {
    const h = await setup(
      () => ({ error: { status: 429, message: 'Resource has been exhausted (e.g. check quota).' } }),
      {
        ...GEMINI_TEST_SETTINGS,
        general: { maxAttempts: 1 },
      },
    );
    const { result, events } = await h.run('Do US-002.');
    expect(result.stopReason).toBe('exited');
    expect(result.exitCode).not.toBe(0);
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ kind: 'rate-limit' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: false });
    expect(textsOf(events)).toEqual([]);
  });

  it('preflight finds the version, and refuses when no auth method is configured', async () => {
    const h = await setup(() => ({ text: 'unused' }));
    const ok = await geminiAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: h.agent.env,
      isRoot: true,
    });
    expect(ok).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    await rm(join(h.agent.home, '.gemini', 'settings.json'));
    const { GEMINI_API_KEY: _key, ...withoutKey } = h.agent.env;
    const refused = await geminiAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: withoutKey,
      isRoot: false,
    });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('GEMINI_API_KEY') });
  });
});
