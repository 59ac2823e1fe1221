#!/usr/bin/env node
// A stand-in for `claude -p --output-format stream-json` that writes a given
// number of bytes of realistic stream lines as fast as the pipe takes them:
// assistant text, tool calls and their results, then DONE and a result line.
//   node bench/stream-agent.mjs <bytes>
import { assistantBlocks } from './assistant-text.mjs';

const total = Number(process.argv[2] ?? 64e6);
const session = 'bench-session';
const line = (value) => `${JSON.stringify(value)}\n`;
const assistant = (content, n) =>
  line({
    type: 'assistant',
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-bench',
      content,
      stop_reason: null,
      usage: { input_tokens: 1200, output_tokens: 1 },
    },
    parent_tool_use_id: null,
    session_id: session,
  });
const toolResult = (id, text) =>
  line({
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: id, type: 'tool_result', content: text, is_error: false }],
    },
    parent_tool_use_id: null,
    session_id: session,
  });

// One cycle of about 4 MB, written again and again. An agent writes a few
// LEARN signals in a run, not thousands: one per cycle here. Quoted signals
// (in code, which must not count) stay frequent.
const parts = [];
const file = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(30);
assistantBlocks(1.5e6, 2048, 5000)
  .slice(0, -1)
  .forEach((text, n) => {
    parts.push(assistant([{ type: 'text', text }], n));
    const id = `toolu_${n}`;
    parts.push(
      assistant([{ type: 'tool_use', id, name: 'Read', input: { file_path: `src/file-${n}.ts` } }], n),
    );
    parts.push(toolResult(id, file));
  });
const cycle = Buffer.from(parts.join(''));

const out = process.stdout;
out.write(line({ type: 'system', subtype: 'init', session_id: session, model: 'claude-bench' }));
let written = 0;
function pump() {
  while (written < total) {
    const chunk =
      total - written >= cycle.length ? cycle : cycle.subarray(0, cycle.lastIndexOf(10, total - written) + 1);
    if (chunk.length === 0) break;
    written += chunk.length;
    if (!out.write(chunk)) {
      out.once('drain', pump);
      return;
    }
  }
  out.write(assistant([{ type: 'text', text: 'All gates pass.\n\n<ralph>DONE US-001</ralph>' }], 'last'));
  out.write(
    line({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'done',
      total_cost_usd: 0.01,
      duration_ms: 1,
      num_turns: 1,
      usage: { input_tokens: 1200, output_tokens: 100 },
      session_id: session,
    }),
  );
}
pump();
