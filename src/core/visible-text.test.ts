import { describe, expect, it } from 'vitest';
import { hasControlCharacters, jsonText, visibleText } from './visible-text.js';

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
