/**
 * The real Codex CLI, driven through runAgent against the scripted Responses
 * server: real shell commands, real files, real git commits; only the model is fake.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { MAX_PROMPT_ARG_BYTES } from '../../src/agents/define-adapter.js';
import { createHarness, type Harness, textsOf } from '../support/agent-harness.js';
import { type CodexTestEnv, createCodexEnv } from '../support/codex-env.js';
import { type Script, scriptedTurns } from '../support/model-script.js';
import { startResponsesServer } from '../support/responses-server.js';

let harness: Harness<CodexTestEnv> | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const setup = async (script: Script) => {
  harness = await createHarness({
    adapter: codexAdapter,
    startServer: startResponsesServer,
    createEnv: createCodexEnv,
    script: () => script,
  });
  return harness;
};

describe('Codex adapter end to end', () => {
  it('writes a file and commits it through its shell tool, reporting every step', async () => {
    const h = await setup(
      scriptedTurns([
        { tool: 'Write', input: { file_path: 'src/hello.txt', content: "it's hello\n" } },
        { tool: 'Bash', input: { command: 'git add -A && git commit -q -m "feat: US-001 - Say hello"' } },
        { text: 'Done with the story. <ralph>DONE US-001</ralph>' },
      ]),
    );
    const prompt = '- Implement US-001: say hello. Commit when done.';
    const { result, events, rawLogPath } = await h.run(prompt);

    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(await readFile(join(h.repo.dir, 'src/hello.txt'), 'utf8')).toBe("it's hello\n");
    expect(await h.repo.subjects()).toEqual(['feat: US-001 - Say hello', 'chore: initial commit']);
    expect(await h.repo.git('status', '--porcelain')).toBe('');

    // The prompt reached the model whole, leading dash included, without stdin text appended.
    expect(h.server.modelCalls()[0]?.prompt).toBe(prompt);
    expect(h.server.modelCalls()[0]?.toolNames).toContain('exec_command');
    const tools = events.flatMap((e) => (e.type === 'tool-started' ? [e.summary] : []));
    expect(tools).toHaveLength(2);
    expect(tools[1]).toBe('git add -A && git commit -q -m "feat: US-001 - Say hello"');
    expect(
      events.filter((e) => e.type === 'tool-finished').every((e) => e.type === 'tool-finished' && e.ok),
    ).toBe(true);
    expect(textsOf(events)).toEqual(['Done with the story. <ralph>DONE US-001</ralph>']);
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', inputTokens: 3600, outputTokens: 240, cacheReadTokens: 0 },
    ]);
    expect(events.at(-1)).toEqual({ type: 'result', ok: true, subtype: 'turn.completed' });

    // The raw log holds every line: parsing it again gives exactly the live events.
    const raw = await readFile(rawLogPath, 'utf8');
    const parser = codexAdapter.createParser();
    expect(raw.split('\n').flatMap((line) => parser.parseLine(line))).toEqual(events);
    expect(events.some((e) => e.type === 'garbage')).toBe(false);
  });

  it('takes a prompt too big for one argument on stdin', async () => {
    const h = await setup(scriptedTurns([{ text: 'Read it all. <ralph>DONE US-009</ralph>' }]));
    const prompt = `Do US-009.\n${'x'.repeat(MAX_PROMPT_ARG_BYTES)}\nEnd of prompt.`;
    expect(codexAdapter.buildInvocation({ prompt }).stdin).toEqual({ text: prompt });
    const { result, events } = await h.run(prompt);
    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(h.server.modelCalls()[0]?.prompt.trim()).toBe(prompt);
    expect(textsOf(events)).toEqual(['Read it all. <ralph>DONE US-009</ralph>']);
  });

  it('reports an API rate limit as an error event and a failed result', async () => {
    const h = await setup(() => ({ error: { status: 429, message: 'Rate limit reached' } }));
    const { result, events } = await h.run('Do US-002.');
    expect(result.stopReason).toBe('exited');
    expect(result.exitCode).not.toBe(0);
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ kind: 'rate-limit' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', ok: false });
    expect(textsOf(events)).toEqual([]);
  });

  it('preflight finds the version, and refuses a CODEX_HOME that does not exist', async () => {
    const h = await setup(() => ({ text: 'unused' }));
    const ok = await codexAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: h.agent.env,
      isRoot: true,
    });
    expect(ok).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const missing = join(h.agent.home, 'nope');
    const refused = await codexAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: { ...h.agent.env, CODEX_HOME: missing },
      isRoot: false,
    });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining(missing) });
    await mkdir(missing);
    const created = await codexAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: { ...h.agent.env, CODEX_HOME: missing },
      isRoot: false,
    });
    expect(created.ok).toBe(true);
  });
});
