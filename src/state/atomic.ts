import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomicLib from 'write-file-atomic';
import { faultPoint } from './fault-point.js';

/**
 * Writes through a temp file, fsync and rename, so readers see either the old
 * or the new content and a crash never leaves a half-written file.
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomicLib(file, data, {
    fsync: true,
    tmpfileCreated: () => faultPoint(`atomic-write:${path.basename(file)}`),
  });
}
