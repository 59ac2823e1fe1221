/**
 * The real OpenCode CLI, driven through runAgent against the scripted Chat
 * Completions server: real tools, real files, real git commits; only the model is fake.
 * (A rate-limited run is covered by the recorded fixture: OpenCode retries for
 * seconds before it reports one, too slow to repeat here.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/agents/opencode/opencode-adapter.js';
import { createHarness, type Harness, textsOf } from '../support/agent-harness.js';
import { startChatServer } from '../support/chat-server.js';
import { type Script, scriptedTurns } from '../support/model-script.js';
import { createOpencodeEnv, type OpencodeTestEnv } from '../support/opencode-env.js';

let harness: Harness<OpencodeTestEnv> | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const setup = async (script: Script) => {
  harness = await createHarness({
    adapter: opencodeAdapter,
    startServer: startChatServer,
    createEnv: createOpencodeEnv,
    script: () => script,
  });
  return harness;
};

describe('OpenCode adapter end to end', () => {
  it('writes a file and commits it through its tools, leaving nothing of its own in the project', async () => {
    const h = await setup(
      scriptedTurns([
        { tool: 'Write', input: { file_path: 'src/hello.txt', content: 'hello from the agent\n' } },
        { tool: 'Bash', input: { command: 'git add -A && git commit -q -m "feat: US-001 - Say hello"' } },
        { text: 'Done with the story. <ralph>DONE US-001</ralph>' },
      ]),
    );
    const prompt = '- Implement US-001: "say hello". Commit when done.';
    const { result, events, rawLogPath } = await h.run(prompt);

    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(await readFile(join(h.repo.dir, 'src/hello.txt'), 'utf8')).toBe('hello from the agent\n');
    expect(await h.repo.subjects()).toEqual(['feat: US-001 - Say hello', 'chore: initial commit']);
    // `git add -A` would have picked up anything OpenCode wrote into the project.
    expect(await h.repo.git('show', '--name-only', '--format=', 'HEAD')).toBe('src/hello.txt');
    expect(await h.repo.git('status', '--porcelain', '--ignored')).toBe('');

    // The prompt arrived as written: not re-quoted, leading dash kept.
    expect(h.server.modelCalls()[0]?.prompt).toBe(prompt);
    const tools = events.flatMap((e) => (e.type === 'tool-started' ? [[e.name, e.summary]] : []));
    expect(tools).toEqual([
      ['write', 'src/hello.txt'],
      ['bash', 'git add -A && git commit -q -m "feat: US-001 - Say hello"'],
    ]);
    expect(textsOf(events)).toEqual(['Done with the story. <ralph>DONE US-001</ralph>']);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(3);
    expect(events.some((e) => e.type === 'result')).toBe(false);

    const raw = await readFile(rawLogPath, 'utf8');
    const parser = opencodeAdapter.createParser();
    expect(raw.split('\n').flatMap((line) => parser.parseLine(line))).toEqual(events);
    expect(events.some((e) => e.type === 'garbage')).toBe(false);
  });

  it('its log on stderr stays quiet in a run that goes well', async () => {
    const h = await setup(
      scriptedTurns([
        { tool: 'Write', input: { file_path: 'a.txt', content: 'a\n' } },
        { text: 'Done. <ralph>DONE US-001</ralph>' },
      ]),
    );
    const { result, events } = await h.run('Write a.txt.');
    expect(result).toMatchObject({ exitCode: 0, stopReason: 'exited' });
    expect(result.stderr.split('\n').filter((l) => /level=(ERROR|WARN)/.test(l))).toEqual([]);
    expect(result.stderr.length).toBeLessThan(2000);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });

  it('a model that never answers is still silence: the log keeps no idle timer alive', async () => {
    const h = await setup(() => ({ hang: true }));
    const { result, events } = await h.run('Write a.txt.', { idleTimeoutMs: 4000 });
    expect(result.stopReason).toBe('idle');
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });

  it('preflight finds the version', async () => {
    const h = await setup(() => ({ text: 'unused' }));
    const ok = await opencodeAdapter.preflight({
      binaryPath: h.agent.binaryPath,
      env: h.agent.env,
      isRoot: true,
    });
    expect(ok).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const missing = await opencodeAdapter.preflight({
      binaryPath: 'no-such-opencode',
      env: h.agent.env,
      isRoot: false,
    });
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('OpenCode not found') });
  });
});
