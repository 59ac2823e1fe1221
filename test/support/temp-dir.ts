import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir; remove it with `removeTempDir`. */
export const makeTempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), `ralph-${prefix}-`));

export const removeTempDir = (dir: string): Promise<void> =>
  rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
