/** The Responses, Chat Completions and Gemini fakes: what scripts see, and what clients get back. */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startChatServer } from './chat-server.js';
import { startGeminiServer } from './gemini-server.js';
import type { ModelRequest, Script } from './model-script.js';
import { startResponsesServer } from './responses-server.js';
import type { ScriptedServer } from './scripted-server.js';
import { adaptToolUse, shellQuote, writeFileCommand } from './wire-tools.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const seen: ModelRequest[] = [];
const recording =
  (script: Script): Script =>
  (req) => {
    seen.push(req);
    return script(req);
  };
afterEach(() => {
  seen.length = 0;
});

describe('wire tools', () => {
  it('turns generic Write/Bash into each agent’s own tools', () => {
    const write = { name: 'Write', input: { file_path: 'a b.txt', content: "it's\n" } };
    const bash = { name: 'Bash', input: { command: 'ls' } };
    expect(adaptToolUse(write, ['write_file', 'run_shell_command'])).toEqual({
      name: 'write_file',
      input: { file_path: 'a b.txt', content: "it's\n" },
    });
    expect(adaptToolUse(write, ['bash', 'write'])).toEqual({
      name: 'write',
      input: { filePath: 'a b.txt', content: "it's\n" },
    });
    expect(adaptToolUse(write, ['exec_command'])).toEqual({
      name: 'exec_command',
      input: { cmd: writeFileCommand('a b.txt', "it's\n") },
    });
    expect(adaptToolUse(bash, ['bash'])).toEqual({
      name: 'bash',
      input: { command: 'ls', description: 'Run a command' },
    });
    expect(adaptToolUse(bash, ['Bash'])).toBe(bash);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('Responses server', () => {
  it('reads turns, tool results and the prompt behind context blocks; answers with SSE items', async () => {
    server = await startResponsesServer(
      recording(() => ({ toolUses: [{ name: 'Bash', input: { command: 'ls' } }] })),
    );
    const response = await post(
      '/v1/responses',
      {
        model: 'm',
        stream: true,
        tools: [{ type: 'function', name: 'exec_command' }],
        input: [
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: '<environment_context>x</environment_context>' }],
          },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Do US-001' }] },
          { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"pwd"}', call_id: 'c1' },
          { type: 'function_call_output', call_id: 'c1', output: '/tmp' },
        ],
      },
      { 'session-id': 'thread-1' },
    );
    const text = await response.text();
    expect(seen[0]).toMatchObject({
      turn: 1,
      toolResultCount: 1,
      prompt: 'Do US-001',
      sessionId: 'thread-1',
    });
    expect(text).toContain('"type":"response.completed"');
    expect(text).toContain('"name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}"');
  });
});

describe('Chat Completions server', () => {
  it('streams tool call deltas and ends with [DONE]; calls without tools are side calls', async () => {
    server = await startChatServer(
      recording(() => ({ toolUses: [{ name: 'Write', input: { file_path: 'f', content: 'x' } }] })),
    );
    const body = (tools: boolean) => ({
      model: 'm1',
      stream: true,
      messages: [{ role: 'user', content: 'Do US-002' }],
      ...(tools ? { tools: [{ type: 'function', function: { name: 'write' } }] } : {}),
    });
    const agent = await (await post('/v1/chat/completions', body(true), { 'x-session-id': 'ses_1' })).text();
    expect(agent.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(agent).toContain(
      '"function":{"name":"write","arguments":"{\\"filePath\\":\\"f\\",\\"content\\":\\"x\\"}"}',
    );
    const title = await (await post('/v1/chat/completions', body(false))).text();
    expect(title).toContain('Scripted title');
    expect(server.modelCalls().map((c) => c.sessionId)).toEqual(['ses_1']);
  });
});

describe('Gemini server', () => {
  it('streams text in two chunks, and answers JSON side calls with a value of their schema', async () => {
    server = await startGeminiServer(recording(() => ({ text: 'Done. <ralph>DONE US-003</ralph>' })));
    const sse = await (
      await post('/v1beta/models/gemini-x:streamGenerateContent?alt=sse', {
        contents: [
          { role: 'user', parts: [{ text: '<session_context>c</session_context>' }, { text: 'Do US-003' }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
      })
    ).text();
    const chunks = sse.split('\r\n\r\n').filter((c) => c.startsWith('data: '));
    expect(chunks).toHaveLength(2);
    expect(seen[0]).toMatchObject({ model: 'gemini-x', stream: true, prompt: 'Do US-003', turn: 0 });
    const side = await (
      await post('/v1beta/models/gemini-lite:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'route this' }] }],
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: {
            type: 'OBJECT',
            properties: {
              reasoning: { type: 'STRING' },
              score: { type: 'INTEGER' },
              pick: { type: 'STRING', enum: ['a', 'b'] },
            },
          },
        },
      })
    ).json();
    const answer = z
      .object({
        candidates: z.array(
          z.object({ content: z.object({ parts: z.array(z.object({ text: z.string() })) }) }),
        ),
      })
      .parse(side);
    expect(JSON.parse(answer.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({
      reasoning: 'scripted',
      score: 10,
      pick: 'a',
    });
    const error = await post('/v1beta/models/gemini-x:generateContent', { contents: 'nope' });
    expect(error.status).toBe(400);
  });
});
