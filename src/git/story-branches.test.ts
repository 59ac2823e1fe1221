import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { listStoryBranches } from './story-branches.js';

describe('listStoryBranches', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it('finds branches under the prefix whether their refs are loose or packed, and nothing else', async () => {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a' });
    const prefix = 'refs/heads/ralph-stories/demo/';
    expect(await listStoryBranches(repo.dir, prefix)).toEqual([]);
    await repo.git('branch', 'ralph-stories/other/US-001');
    await repo.git('branch', 'ralph-stories/demo-two/US-001');
    expect(await listStoryBranches(repo.dir, prefix)).toEqual([]);

    await repo.git('branch', 'ralph-stories/demo/US-001');
    const loose = [{ branch: 'ralph-stories/demo/US-001', tip: base, verdict: null }];
    expect(await listStoryBranches(repo.dir, prefix)).toEqual(loose);
    await repo.git('pack-refs', '--all');
    expect(await listStoryBranches(repo.dir, prefix)).toEqual(loose);
  });
});
