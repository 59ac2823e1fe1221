import { describe, expect, it } from 'vitest';
import { oneLine, SUMMARY_MAX_CHARS, toolSummary, truncate } from './summarize.js';

describe('toolSummary', () => {
  it.each([
    [{ file_path: 'src/a.ts', content: 'x' }, 'src/a.ts'],
    [{ command: 'npm test', description: 'Run tests' }, 'npm test'],
    [{ cmd: 'ls -la' }, 'ls -la'],
    [{ pattern: 'TODO', path: 'src' }, 'TODO'],
    [{ path: 'src' }, 'src'],
    [{ url: 'https://example.com', prompt: 'read' }, 'https://example.com'],
    [{ description: 'Explore', subagent_type: 'x' }, 'Explore'],
    [{ count: 3 }, ''],
    ['raw string input', 'raw string input'],
    [null, ''],
    [[1, 2], ''],
  ])('%j -> %s', (input, summary) => {
    expect(toolSummary(input)).toBe(summary);
  });

  it('puts a multi-line command on one line and shortens it', () => {
    expect(toolSummary({ command: 'cd src\n  && npm test' })).toBe('cd src && npm test');
    const long = toolSummary({ command: 'a'.repeat(1000) });
    expect(long.startsWith('a'.repeat(SUMMARY_MAX_CHARS))).toBe(true);
    expect(long).toContain('800 more chars');
  });
});

describe('truncate and oneLine', () => {
  it('leaves short text alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcd', 3)).toBe('abc… [1 more chars]');
    expect(oneLine(' a\n\tb  c ')).toBe('a b c');
  });
});
