import { describe, expect, it } from 'vitest';
import { formatUsd } from './money.js';

describe('formatUsd', () => {
  it('shows cents from ten cents up', () => {
    expect(formatUsd(0.1)).toBe('$0.10');
    expect(formatUsd(1.234)).toBe('$1.23');
    expect(formatUsd(12.5)).toBe('$12.50');
  });

  it('never rounds a real spend under a cent to $0.00', () => {
    expect(formatUsd(0.004)).toBe('$0.004');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0.00225)).toMatch(/^\$0\.002[23]$/);
    expect(formatUsd(0.0123)).toBe('$0.012');
    expect(formatUsd(0.0999)).toBe('$0.10');
    expect(formatUsd(0.05)).toBe('$0.05');
  });

  it('says nothing was spent only when nothing was', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.00004)).toBe('<$0.0001');
  });

  it('parts under a cent add up visibly to their total', () => {
    const parts = [0.004, 0.004, 0.004];
    const total = parts.reduce((a, b) => a + b, 0);
    expect(parts.map(formatUsd)).toEqual(['$0.004', '$0.004', '$0.004']);
    expect(formatUsd(total)).toBe('$0.012');
  });
});
