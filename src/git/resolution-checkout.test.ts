import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { addedLines, changedPaths, prepareResolutionCheckout, textAt } from './resolution-checkout.js';
import { prepareStoryCheckout } from './story-worktree.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const TASK = '.ralph/prds/demo/prd.json';

/** A story branch from `base` with its verdict on top, and the main branch moved on meanwhile. */
async function race(r: TempRepo) {
  const base = await r.commit('base', {
    '.gitignore': 'st/\n',
    'REGISTRY.md': '# Registry\n',
    [TASK]: '{"v":0}\n',
  });
  const dir = path.join(r.dir, 'st');
  const branch = 'ralph-stories/demo/S-2';
  await prepareStoryCheckout(r.dir, { dir, branch, from: base });
  await r.git('-C', dir, 'config', 'user.email', 'a@b.c');
  await writeFile(path.join(dir, 'REGISTRY.md'), '# Registry\n- S-2\n');
  await writeFile(path.join(dir, TASK), '{"v":"agent edit"}\n');
  await r.git('-C', dir, 'commit', '-qam', 'feat: S-2');
  const head = await r.git('-C', dir, 'rev-parse', 'HEAD');
  await r.git('-C', dir, 'commit', '-q', '--allow-empty', '-m', 'ralph: S-2 verified');
  const verdict = await r.git('rev-parse', branch);
  const tip = await r.commit('S-1 landed', { 'REGISTRY.md': '# Registry\n- S-1\n', [TASK]: '{"v":1}\n' });
  return { base, dir, branch, head, verdict, tip };
}

describe('prepareResolutionCheckout', () => {
  it('detaches the story checkout at the new tip with its work merged in, conflicts marked; its branch does not move', async () => {
    const r = await makeTempRepo();
    repo = r;
    const { dir, branch, head, verdict, tip } = await race(r);
    const prepared = await prepareResolutionCheckout(r.dir, { dir, tip, head, toolPaths: [TASK] });
    expect(prepared.conflicts).toEqual(['REGISTRY.md']);
    expect(prepared.diff).toMatch(/<<<<<<< HEAD\n[ +]*- S-1\n/);
    expect(await readFile(path.join(dir, 'REGISTRY.md'), 'utf8')).toMatch(
      /<<<<<<< HEAD\n- S-1\n=======\n- S-2\n>>>>>>> /,
    );
    // The tool's file is the tip's, its conflict settled; the story branch still holds the verdict.
    expect(await readFile(path.join(dir, TASK), 'utf8')).toBe('{"v":1}\n');
    expect(await r.git('rev-parse', branch)).toBe(verdict);
    expect(await r.git('-C', dir, 'rev-parse', 'HEAD')).toBe(tip);
    expect(await r.git('-C', dir, 'symbolic-ref', '-q', 'HEAD').catch(() => 'detached')).toBe('detached');

    // Again, from whatever the first left: the same state, not a merge on top of a merge.
    await writeFile(path.join(dir, 'stray.txt'), 'x');
    const again = await prepareResolutionCheckout(r.dir, { dir, tip, head, toolPaths: [TASK] });
    expect(again.conflicts).toEqual(['REGISTRY.md']);
    expect(await r.git('-C', dir, 'status', '--porcelain', '--', 'stray.txt')).toBe('');
  });

  it('reads what a range added to a file, the paths it changed, and a file at a revision', async () => {
    const r = await makeTempRepo();
    repo = r;
    const { base, tip } = await race(r);
    expect(await addedLines(r.dir, base, tip, 'REGISTRY.md')).toEqual(['- S-1']);
    expect((await changedPaths(r.dir, base, tip)).sort()).toEqual([TASK, 'REGISTRY.md'].sort());
    expect(await textAt(r.dir, tip, 'REGISTRY.md')).toBe('# Registry\n- S-1\n');
    expect(await textAt(r.dir, tip, 'missing.txt')).toBeNull();
  });
});
