import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dominantEol, joinLines, positionAt, splitLines } from './text-position.js';

describe('text positions', () => {
  it('gives 1-based line and column', () => {
    const text = 'ab\ncd\r\nef';
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt(text, 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt(text, 7)).toEqual({ line: 3, column: 1 });
    expect(positionAt(text, 99)).toEqual({ line: 3, column: 3 });
  });

  it('splits lines so that joining them gives back the same text', () => {
    expect(splitLines('a\r\nb\n')).toEqual([
      { content: 'a', eol: '\r\n' },
      { content: 'b', eol: '\n' },
    ]);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', '\r\n') }), (text) => {
        expect(joinLines(splitLines(text))).toBe(text);
      }),
    );
  });

  it('picks the line ending most lines use', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\nb\r\n')).toBe('\n');
    expect(dominantEol('')).toBe('\n');
  });
});

describe('positionAt against a plain scan', () => {
  const naive = (text: string, offset: number) => {
    const end = Math.min(Math.max(offset, 0), text.length);
    const before = text.slice(0, end);
    const lastBreak = before.lastIndexOf('\n');
    return { line: before.split('\n').length, column: end - (lastBreak + 1) + 1 };
  };
  it('agrees for any text and offset, including texts asked about in turn', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\n', '\r', 'é') }),
        fc.string(),
        fc.integer({ min: -2, max: 60 }),
        (a, b, offset) => {
          expect(positionAt(a, offset)).toEqual(naive(a, offset));
          expect(positionAt(b, offset)).toEqual(naive(b, offset));
          expect(positionAt(a, offset)).toEqual(naive(a, offset));
        },
      ),
    );
  });
});
