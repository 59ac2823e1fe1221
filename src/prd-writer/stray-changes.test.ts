import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { watchStrayChanges } from './stray-changes.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('watchStrayChanges', () => {
  it('lists files changed during the work, outside .ralph/, that were not dirty before', async () => {
    repo = await makeTempRepo();
    await repo.commit('init', { 'src/app.ts': 'a\n', 'README.md': 'r\n' });
    await repo.write('README.md', 'already dirty\n');
    const r = repo;
    const { result, stray } = await watchStrayChanges(r.dir, async () => {
      await r.write('.ralph/prds/x/prd.md', '# X\n');
      await r.write('src/app.ts', 'implemented anyway\n');
      await r.write('src/new.ts', 'new\n');
      await r.write('README.md', 'still dirty\n');
      return 42;
    });
    expect(result).toBe(42);
    expect(stray).toEqual(['src/app.ts', 'src/new.ts']);
  });

  it('lists nothing outside a git work tree', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ralph-nogit-'));
    try {
      expect((await watchStrayChanges(dir, async () => 'ok')).stray).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
