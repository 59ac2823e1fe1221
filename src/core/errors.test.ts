import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSystemError, systemErrorReason } from './errors.js';

/** A real system error from Node, not one built by hand. */
function caught(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('system errors said as sentences', () => {
  it('names the call, the path, the reason and the code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ralph-errors-'));
    try {
      const file = join(dir, 'file');
      writeFileSync(file, '');
      const error = caught(() => writeFileSync(join(file, 'below'), ''));
      expect(systemErrorReason(error)).toBe('not a directory (ENOTDIR)');
      expect(describeSystemError(error)).toBe(
        `could not open ${join(file, 'below')}: not a directory (ENOTDIR)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves anything else to the caller', () => {
    expect(systemErrorReason(new Error('plain'))).toBeNull();
    expect(describeSystemError('text')).toBeNull();
  });
});
