import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { git } from './git.js';
import { hasRemote, pushBranch } from './remote.js';

let repo: TempRepo | undefined;
let origin = '';
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
  if (origin) await rm(origin, { recursive: true, force: true });
  origin = '';
});

describe('pushBranch', () => {
  it('pushes the branch to origin and sets its upstream', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    await repo.git('switch', '--quiet', '-c', 'ralph/x');
    const tip = await repo.commit('work', { 'w.txt': 'w' });
    origin = await mkdtemp(path.join(tmpdir(), 'ralph-origin-'));
    await git(['init', '--quiet', '--bare'], { cwd: origin });
    await repo.git('remote', 'add', 'origin', origin);
    expect(await hasRemote(repo.dir, 'origin')).toBe(true);

    expect(await pushBranch(repo.dir, 'ralph/x')).toEqual({ ok: true, remote: 'origin' });
    expect(await git(['rev-parse', 'refs/heads/ralph/x'], { cwd: origin })).toBe(tip);
    expect(await repo.git('rev-parse', '--symbolic-full-name', 'ralph/x@{upstream}')).toBe(
      'refs/remotes/origin/ralph/x',
    );
  });

  it('returns a message, not an exception, without a remote or when the push fails', async () => {
    repo = await makeTempRepo();
    await repo.commit('base');
    const none = await pushBranch(repo.dir, 'main');
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.message).toMatch(/no remote named origin/);

    await repo.git('remote', 'add', 'origin', path.join(repo.dir, 'does-not-exist'));
    const failed = await pushBranch(repo.dir, 'main');
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.message).toMatch(/does-not-exist|not appear to be a git repository/);
  });
});
