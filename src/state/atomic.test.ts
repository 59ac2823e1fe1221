import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTemporaryFile } from '../core/temporary-files.js';
import { removeStaleTemporaries, writeFileAtomic } from './atomic.js';

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

describe('temporary files', () => {
  it('names its temporary file after the target and the writer, and keeps a file mode', async () => {
    const file = path.join(dir, 'prd.json');
    await fs.writeFile(file, 'old', { mode: 0o640 });
    await fs.chmod(file, 0o640);
    await writeFileAtomic(file, 'new');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
    expect(isTemporaryFile(`.prd.json.ralph-tmp-${process.pid}-7`)).toBe(true);
    expect(isTemporaryFile('prd.json.577055444')).toBe(false);
    expect(isTemporaryFile('.ralph-tmp-1-2')).toBe(false);
  });

  it('replaces a symlink with the file, never writing through it', async () => {
    await fs.writeFile(path.join(dir, 'real.md'), 'old');
    await fs.symlink('real.md', path.join(dir, 'link.md'));
    await writeFileAtomic(path.join(dir, 'link.md'), 'new');
    expect((await fs.lstat(path.join(dir, 'link.md'))).isFile()).toBe(true);
    expect(await fs.readFile(path.join(dir, 'link.md'), 'utf8')).toBe('new');
    expect(await fs.readFile(path.join(dir, 'real.md'), 'utf8')).toBe('old');
  });

  it("removes dead writers' temporaries, keeps live ones and everything else", async () => {
    const dead = spawnSync('true').pid;
    await fs.mkdir(path.join(dir, 'epic-1'));
    const names = [
      `.prd.json.ralph-tmp-${dead}-1`,
      `epic-1/.story-1.1.md.ralph-tmp-${dead}-3`,
      `.progress.md.ralph-tmp-${process.pid}-2`,
      'prd.json',
      'prd.json.577055444',
    ];
    for (const name of names) await fs.writeFile(path.join(dir, name), 'x');
    const removed = await removeStaleTemporaries(dir, { recursive: true });
    expect(removed.map((f) => path.relative(dir, f)).sort()).toEqual([names[0], names[1]].sort());
    expect((await fs.readdir(dir)).sort()).toEqual(
      [`.progress.md.ralph-tmp-${process.pid}-2`, 'epic-1', 'prd.json', 'prd.json.577055444'].sort(),
    );
    expect(await removeStaleTemporaries(path.join(dir, 'missing'))).toEqual([]);
  });
});
