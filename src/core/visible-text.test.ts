import { describe, expect, it } from 'vitest';
import { hasControlCharacters, jsonText, visibleLine, visibleText } from './visible-text.js';

describe('visibleText', () => {
  it('shows escape sequences as text: clipboard write, screen clear, window title', () => {
    expect(visibleText('a\u001b]52;c;aGk=\u0007b')).toBe('a␛]52;c;aGk=␇b');
    expect(visibleText('\u001b[2J')).toBe('␛[2J');
    expect(visibleText('\u001b]0;pwned\u0007')).toBe('␛]0;pwned␇');
  });

  it('keeps line breaks and tabs, and shows carriage returns, DEL and C1 controls', () => {
    expect(visibleText('one\n\ttwo')).toBe('one\n\ttwo');
    expect(visibleText('over\rwrite')).toBe('over␍write');
    expect(visibleText('x\u007fy\u009bz')).toBe('x␡y\\u009bz');
  });

  it('shows bidi overrides and isolates, zero-width characters and Unicode line separators', () => {
    expect(visibleText('invoice\u202Efdp.exe')).toBe('invoice\\u202efdp.exe');
    expect(visibleText('a\u2066b\u2069c\u200Fd')).toBe('a\\u2066b\\u2069c\\u200fd');
    expect(visibleText('ad\u200Bmin\u200Cx\u200Dy\u2060z\uFEFF')).toBe(
      'ad\\u200bmin\\u200cx\\u200dy\\u2060z\\ufeff',
    );
    expect(visibleText('one\u2028two\u2029')).toBe('one\\u2028two\\u2029');
    // The joiner inside an emoji sequence is the emoji's own.
    expect(visibleText('family 👨\u200D👩\u200D👧, flag 🏳️\u200D🌈')).toBe(
      'family 👨\u200D👩\u200D👧, flag 🏳️\u200D🌈',
    );
  });

  it('visibleLine keeps a single-line field on one line: line feeds and tabs shown too', () => {
    expect(visibleLine('Add export\n  ✓ GH-3 passed')).toBe('Add export␊  ✓ GH-3 passed');
    expect(visibleLine('a\tb\r\nc\u202E')).toBe('a␉b␍␊c\\u202e');
    expect(visibleLine('plain title ✓')).toBe('plain title ✓');
  });

  it('says whether there is anything to show', () => {
    expect(hasControlCharacters('plain text, ünïcode ✓')).toBe(false);
    expect(hasControlCharacters('bell\u0007')).toBe(true);
    expect(hasControlCharacters('\u009b')).toBe(true);
  });
});

describe('jsonText', () => {
  it('escapes every control character, so the line is inert on a terminal and exact once parsed', () => {
    const value = { title: 'a\u001b]0;t\u0007b\u007fc\u009bd', n: 1 };
    const text = jsonText(value);
    expect(hasControlCharacters(text)).toBe(false);
    expect(text).toContain('\\u001b]0;t\\u0007b\\u007fc\\u009bd');
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(jsonText(value, 2))).toEqual(value);
  });
});
