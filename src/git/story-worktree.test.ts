import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { prepareStoryCheckout, removeStoryCheckout } from './story-worktree.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('story checkouts', () => {
  it('many made and removed at once in one repository all succeed', async () => {
    const r = await makeTempRepo();
    repo = r;
    const from = await r.commit('base', { 'a.txt': 'a\n' });
    const stories = Array.from({ length: 16 }, (_, i) => ({
      dir: path.join(r.dir, '.ralph', 'runs', 'demo', 'stories', `S-${i}`),
      branch: `ralph-stories/demo/S-${i}`,
      from,
    }));
    // Twice over: the race this guards against does not show every time.
    for (let round = 0; round < 2; round++) {
      const made = await Promise.all(stories.map((s) => prepareStoryCheckout(r.dir, s)));
      expect(made.every((m) => m.created)).toBe(true);
      for (const s of stories) expect(existsSync(path.join(s.dir, 'a.txt'))).toBe(true);
      await Promise.all(stories.map((s) => removeStoryCheckout(r.dir, s)));
      expect(await r.git('branch', '--list', 'ralph-stories/*')).toBe('');
      expect((await r.git('worktree', 'list')).split('\n')).toHaveLength(1);
    }
  });

  it('reuses a story’s worktree at a new tip, keeping ignored files, and tidies a half-made one', async () => {
    const r = await makeTempRepo();
    repo = r;
    await r.commit('base', { '.gitignore': 'deps/\n' });
    const story = { dir: path.join(r.dir, 'st'), branch: 'ralph-stories/demo/S' };
    await prepareStoryCheckout(r.dir, { ...story, from: await r.git('rev-parse', 'HEAD') });
    await r.write('st/deps/x', 'installed');
    await r.write('st/stray.txt', 'left by a failed attempt');
    const tip = await r.commit('next', { 'b.txt': 'b\n' });
    const again = await prepareStoryCheckout(r.dir, { ...story, from: tip });
    expect(again.created).toBe(false);
    expect(existsSync(path.join(story.dir, 'b.txt'))).toBe(true);
    expect(existsSync(path.join(story.dir, 'deps', 'x'))).toBe(true);
    expect(existsSync(path.join(story.dir, 'stray.txt'))).toBe(false);
    // A folder git does not know (a crash mid-add) is replaced by a real worktree.
    await removeStoryCheckout(r.dir, story);
    await r.write('st/junk', 'x');
    expect((await prepareStoryCheckout(r.dir, { ...story, from: tip })).created).toBe(true);
    expect(existsSync(path.join(story.dir, 'junk'))).toBe(false);
  });
});
