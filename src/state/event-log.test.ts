import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent, parseEventLines, readEvents } from './event-log.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-events-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('event log', () => {
  it('appends one JSON line per event, creating folders', async () => {
    const file = path.join(dir, 'runs', 'main', 'events.jsonl');
    await appendEvent(file, { type: 'start', n: 1 });
    await appendEvent(file, { type: 'text', text: 'line\nbreak' });
    expect(await fs.readFile(file, 'utf8')).toBe(
      '{"type":"start","n":1}\n{"type":"text","text":"line\\nbreak"}\n',
    );
    expect(await readEvents(file)).toEqual([
      { type: 'start', n: 1 },
      { type: 'text', text: 'line\nbreak' },
    ]);
  });

  it('reads a missing log as empty', async () => {
    expect(await readEvents(path.join(dir, 'nope.jsonl'))).toEqual([]);
  });

  it('skips a truncated last line and reports it', async () => {
    const file = path.join(dir, 'events.jsonl');
    await fs.writeFile(file, '{"a":1}\n{"b":2}\n{"c":');
    const invalid: number[] = [];
    expect(await readEvents(file, { onInvalidLine: (n) => invalid.push(n) })).toEqual([{ a: 1 }, { b: 2 }]);
    expect(invalid).toEqual([3]);
  });

  it('starts a fresh line after one a crashed run left unfinished', async () => {
    const file = path.join(dir, 'crashed.jsonl');
    await fs.writeFile(file, '{"a":1}\n{"trunc');
    await Promise.all([appendEvent(file, { b: 2 }), appendEvent(file, { c: 3 })]);
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    expect(lines.slice(0, 2)).toEqual(['{"a":1}', '{"trunc']);
    expect(lines.slice(2).sort()).toEqual(['', '{"b":2}', '{"c":3}']);
    // The two appends race each other: either may land first, but both whole and after the repaired line.
    const events = await readEvents(file);
    expect(events[0]).toEqual({ a: 1 });
    expect(events.slice(1)).toHaveLength(2);
    expect(events.slice(1)).toEqual(expect.arrayContaining([{ b: 2 }, { c: 3 }]));
  });

  it('keeps reading past a damaged line left by an earlier crash', () => {
    const invalid: string[] = [];
    const events = parseEventLines('{"a":1}\n{"half":{"type":"next"}\n\n{"d":4}\n', {
      onInvalidLine: (_n, text) => invalid.push(text),
    });
    expect(events).toEqual([{ a: 1 }, { d: 4 }]);
    expect(invalid).toEqual(['{"half":{"type":"next"}']);
  });

  it('keeps every line whole under concurrent appends', async () => {
    const file = path.join(dir, 'events.jsonl');
    await Promise.all(Array.from({ length: 50 }, (_, i) => appendEvent(file, { i, pad: 'x'.repeat(500) })));
    const events = await readEvents(file, {
      onInvalidLine: () => {
        throw new Error('interleaved line');
      },
    });
    expect(events).toHaveLength(50);
  });

  it('refuses values that are not JSON', async () => {
    await expect(appendEvent(path.join(dir, 'e.jsonl'), undefined)).rejects.toThrow(TypeError);
  });
});
