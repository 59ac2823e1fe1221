import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from './anthropic-server.js';
import { type ModelRequest, type Script, scriptedTurns, sessionQueue, withFailures } from './model-script.js';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (script: Script) => {
  server = await startAnthropicServer(script);
  return server;
};

interface Call {
  stream?: boolean;
  tools?: boolean;
  messages?: unknown[];
  sessionId?: string;
  signal?: AbortSignal;
}

const post = (s: AnthropicServer, call: Call = {}) =>
  fetch(`${s.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'secret', authorization: 'Bearer secret' },
    signal: call.signal ?? null,
    body: JSON.stringify({
      model: 'claude-test',
      stream: call.stream ?? true,
      system: [{ type: 'text', text: 'You are a test.' }],
      messages: call.messages ?? [{ role: 'user', content: 'the prompt' }],
      ...(call.tools === false ? {} : { tools: [{ name: 'Bash' }, { name: 'Write' }] }),
      ...(call.sessionId ? { metadata: { user_id: JSON.stringify({ session_id: call.sessionId }) } } : {}),
    }),
  });

const sseEvents = (text: string) =>
  text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return {
        event: eventLine?.replace('event: ', ''),
        data: JSON.parse(dataLine?.replace('data: ', '') ?? ''),
      };
    });

const afterTurns = (n: number) => {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'the prompt' }] }];
  for (let i = 0; i < n; i++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: {} }],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'ok' }] });
  }
  return messages;
};

describe('scripted Anthropic server', () => {
  it('streams a tool call in the Messages API event order, with usage', async () => {
    const s = await start(() => ({
      text: 'Writing.',
      toolUses: [{ name: 'Write', input: { file_path: 'a.txt' } }],
    }));
    const response = await post(s);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]?.data.message.usage.input_tokens).toBeGreaterThan(0);
    expect(events[2]?.data.delta).toEqual({ type: 'text_delta', text: 'Writing.' });
    expect(events[4]?.data.content_block).toMatchObject({ type: 'tool_use', name: 'Write' });
    expect(JSON.parse(events[5]?.data.delta.partial_json)).toEqual({ file_path: 'a.txt' });
    expect(events[7]?.data.delta.stop_reason).toBe('tool_use');
  });

  it('answers a non-streaming call with one JSON message', async () => {
    const s = await start(() => ({ text: 'Plain.' }));
    const body = await (await post(s, { stream: false })).json();
    expect(body).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Plain.' }],
      stop_reason: 'end_turn',
    });
  });

  it('answers side calls (no tools) itself and records every request without credentials', async () => {
    const seen: ModelRequest[] = [];
    const s = await start((req) => {
      seen.push(req);
      return { text: 'main' };
    });
    const side = sseEvents(await (await post(s, { tools: false })).text());
    expect(side[2]?.data.delta.text).toBe('Scripted side reply');
    expect((await fetch(s.url, { method: 'HEAD' })).status).toBe(200);
    await (await post(s)).text();
    expect(seen).toHaveLength(1);
    expect(s.modelCalls().map((c) => c.prompt)).toEqual(['the prompt']);
    expect(s.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/messages',
      'HEAD /',
      'POST /v1/messages',
    ]);
    for (const r of s.requests) {
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(r.headers.authorization).toBeUndefined();
    }
    expect(s.requests[0]?.url).toBe('/v1/messages?beta=true');
  });

  it('replies with API errors', async () => {
    const s = await start(
      withFailures([{ error: { status: 429 } }, { error: { status: 529 } }], () => ({ text: 'ok' })),
    );
    const first = await post(s);
    expect(first.status).toBe(429);
    expect(await first.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const second = await post(s);
    expect(second.status).toBe(529);
    expect(await second.json()).toMatchObject({ error: { type: 'overloaded_error' } });
    expect((await post(s)).status).toBe(200);
  });

  it('can hang until the client gives up, and still closes', async () => {
    const s = await start(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = post(s, { signal: controller.signal });
    await expect.poll(() => s.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('delays a reply', async () => {
    const s = await start(() => ({ text: 'late', delayMs: 50 }));
    const events = sseEvents(await (await post(s)).text());
    expect(events[2]?.data.delta.text).toBe('late');
  });

  it('scriptedTurns picks the turn from the conversation, so a retried request gets the same answer', async () => {
    const s = await start(scriptedTurns([{ tool: 'Bash', input: { command: 'ls' } }, { text: 'second' }]));
    const turn = async (n: number) => sseEvents(await (await post(s, { messages: afterTurns(n) })).text());
    expect((await turn(0))[1]?.data.content_block).toMatchObject({ name: 'Bash' });
    expect((await turn(0))[1]?.data.content_block).toMatchObject({ name: 'Bash' });
    expect((await turn(1))[2]?.data.delta.text).toBe('second');
    expect((await turn(2))[2]?.data.delta.text).toMatch(/no more turns/);
    expect(s.modelCalls().map((c) => [c.turn, c.toolResultCount])).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('sessionQueue gives each new session the next script', async () => {
    const s = await start(
      sessionQueue([
        scriptedTurns([{ text: 'one-a' }, { text: 'one-b' }]),
        scriptedTurns([{ text: 'two-a' }]),
      ]),
    );
    const say = async (sessionId: string, turns: number) =>
      sseEvents(await (await post(s, { sessionId, messages: afterTurns(turns) })).text())[2]?.data.delta.text;
    expect(await say('s1', 0)).toBe('one-a');
    expect(await say('s1', 0)).toBe('one-a');
    expect(await say('s1', 1)).toBe('one-b');
    expect(await say('s2', 0)).toBe('two-a');
    expect(await say('s3', 0)).toMatch(/no more turns/);
  });

  it('reports a throwing script as a 500 and keeps the error', async () => {
    const s = await start(() => {
      throw new Error('bad script');
    });
    expect((await post(s)).status).toBe(500);
    expect(String(s.scriptErrors[0])).toContain('bad script');
  });
});
