/**
 * Just enough of the inspector protocol to ask a Node process started with
 * `--inspect=127.0.0.1:0` for a full garbage collection and its heap use:
 * a WebSocket over `node:http` (one connection per question, text frames
 * only), so the benchmark needs neither a flag nor a package for it.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

/** `ws://127.0.0.1:PORT/UUID`, as the inspected process prints it on stderr. */
export const INSPECTOR_URL = /ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+/;

export interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/** A full collection (as for low memory: every round, new space shrunk), then the heap's use. */
export async function collectGarbage(url: string): Promise<HeapUsage> {
  const socket = await connect(url);
  try {
    await call(socket, 1, 'HeapProfiler.collectGarbage');
    const usage = (await call(socket, 2, 'Runtime.getHeapUsage')) as HeapUsage;
    return usage;
  } finally {
    socket.destroy();
  }
}

function connect(url: string): Promise<Socket> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      path: pathname,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    req.on('upgrade', (_res, socket) => resolve(socket));
    req.on('response', (res) => reject(new Error(`no WebSocket upgrade: HTTP ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

/** Sends one command and resolves with its result, skipping anything else the process sends. */
function call(socket: Socket, id: number, method: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const frame = readFrame(buffer);
        if (frame === null) return;
        buffer = buffer.subarray(frame.length);
        const message = JSON.parse(frame.text) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== id) continue;
        socket.off('data', onData);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
        return;
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(textFrame(JSON.stringify({ id, method })));
  });
}

/** A client's text frame: final, masked, with the length in 7, 16 or 64 bits. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x81, 0x80 | length])
      : length < 65_536
        ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigLength(length)]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

function bigLength(length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}

/** A server's (unmasked) frame at the start of `buffer`, or null until it has all arrived. */
function readFrame(buffer: Buffer): { text: string; length: number } | null {
  if (buffer.length < 2) return null;
  let length = (buffer[1] ?? 0) & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  if (buffer.length < offset + length) return null;
  return { text: buffer.subarray(offset, offset + length).toString('utf8'), length: offset + length };
}
