import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedTail } from './bounded-tail.js';
import { LineSplitter } from './line-splitter.js';

const splitAll = (splitter: LineSplitter, chunks: Buffer[]) => [
  ...chunks.flatMap((chunk) => splitter.push(chunk)),
  ...splitter.end(),
];

function chunked(buffer: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buffer.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, buffer.length]) {
    chunks.push(buffer.subarray(start, point));
    start = point;
  }
  return chunks;
}

describe('LineSplitter', () => {
  it('gives the same lines however the bytes are chunked, multi-byte characters included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, cuts) => {
          const text = lines.map((l) => l.replace(/[\r\n]/g, '')).join('\n');
          const result = splitAll(new LineSplitter(1 << 20), chunked(Buffer.from(text, 'utf8'), cuts));
          // A final newline ends the last line; it does not start an empty one.
          const expected = text.split('\n');
          if (expected.at(-1) === '') expected.pop();
          expect(result.map((l) => l.text)).toEqual(expected);
          expect(result.every((l) => !l.truncated)).toBe(true);
        },
      ),
    );
  });

  it('strips a CR before the newline', () => {
    expect(splitAll(new LineSplitter(100), [Buffer.from('a\r\nb\r\n')]).map((l) => l.text)).toEqual([
      'a',
      'b',
    ]);
  });

  it('cuts a line over the cap to a preview and carries on with the next line', () => {
    const splitter = new LineSplitter(10);
    const lines = splitAll(splitter, [Buffer.from('0123456'), Buffer.from('789abcdef\nok\n')]);
    expect(lines).toEqual([
      { text: '0123456789', truncated: true, bytes: 16 },
      { text: 'ok', truncated: false, bytes: 2 },
    ]);
  });

  it('keeps at most a 2 KiB preview of a huge line', () => {
    const splitter = new LineSplitter(1 << 20);
    const huge = Buffer.alloc(3 << 20, 'z');
    const lines = splitAll(splitter, [huge.subarray(0, 1 << 20), huge.subarray(1 << 20), Buffer.from('\n')]);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.truncated).toBe(true);
    expect(lines[0]?.bytes).toBe(3 << 20);
    expect(lines[0]?.text.length).toBe(2048);
  });
});

describe('BoundedTail', () => {
  it('keeps the end and says how much was dropped', () => {
    const tail = new BoundedTail(5);
    tail.append('abc');
    expect(tail.toString()).toBe('abc');
    tail.append('defgh');
    expect(tail.toString()).toBe('[… 3 earlier chars dropped]\ndefgh');
  });
});
