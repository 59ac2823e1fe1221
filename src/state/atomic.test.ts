import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates missing parent folders', async () => {
    const file = path.join(dir, 'a', 'b', 'state.json');
    await writeFileAtomic(file, '{"v":1}\n');
    expect(await fs.readFile(file, 'utf8')).toBe('{"v":1}\n');
  });

  it('replaces existing content and leaves no temp files behind', async () => {
    const file = path.join(dir, 'state.json');
    await writeFileAtomic(file, 'old content that is longer');
    await writeFileAtomic(file, Buffer.from('new'));
    expect(await fs.readFile(file, 'utf8')).toBe('new');
    expect(await fs.readdir(dir)).toEqual(['state.json']);
  });

  it('keeps every concurrent writer whole: the file ends as exactly one of them', async () => {
    const file = path.join(dir, 'race.txt');
    const contents = Array.from({ length: 10 }, (_, i) => String(i).repeat(10_000));
    await Promise.all(contents.map((c) => writeFileAtomic(file, c)));
    expect(contents).toContain(await fs.readFile(file, 'utf8'));
  });
});
