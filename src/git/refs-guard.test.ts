import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { holdOwnRef, movingOwnRef, noteOwnRefMove, restoreForeignRefs, snapshotRefs } from './refs-guard.js';

const PRD = 'refs/heads/ralph/demo';

describe('the refs guard in a parallel run', () => {
  let repo: TempRepo | undefined;
  afterEach(async () => repo?.cleanup());

  async function heldPrdBranch() {
    repo = await makeTempRepo();
    const base = await repo.commit('base', { 'a.txt': 'a\n' });
    await repo.git('branch', 'ralph/demo', base);
    const landed = await repo.commit('landed', { 'b.txt': 'b\n' });
    await holdOwnRef(repo.dir, PRD);
    return { r: repo, base, landed };
  }

  it('puts back a PRD branch an agent moved', async () => {
    const { r, base, landed } = await heldPrdBranch();
    const before = await snapshotRefs(r.dir);
    await r.git('update-ref', PRD, landed);
    const restored = await restoreForeignRefs(r.dir, before);
    expect(restored).toEqual([{ ref: PRD, was: landed, now: base }]);
    expect(await r.git('rev-parse', PRD)).toBe(base);
  });

  it('never puts back a move of its own that an attempt’s check reads before ralph has recorded it', async () => {
    const { r, base, landed } = await heldPrdBranch();
    const before = await snapshotRefs(r.dir);
    // git has moved the branch (the merge queue's compare-and-swap, a hook's commit), ralph has not yet
    // heard back and recorded it, and another lane's attempt checks its refs in between.
    const midMove = async () => {
      await r.git('update-ref', PRD, landed, base);
      const seen = await restoreForeignRefs(r.dir, before);
      noteOwnRefMove(PRD, landed);
      return seen;
    };
    expect(await movingOwnRef(PRD, midMove)).toEqual([]);
    expect(await r.git('rev-parse', PRD)).toBe(landed);
    expect(await restoreForeignRefs(r.dir, before)).toEqual([]);

    // The same interleaving not marked as ralph's own move: the check puts the landing back.
    await r.git('update-ref', PRD, base);
    await holdOwnRef(r.dir, PRD);
    expect(await midMove()).toEqual([{ ref: PRD, was: landed, now: base }]);
  });
});
