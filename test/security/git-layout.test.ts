/**
 * Attack 2 (`--no-worktree`): the agent writes `.git/commondir`, pointing git
 * at a directory it made whose config signs the next commit with its own
 * program (and names an fsmonitor). With the layout check, ralph refuses to
 * run git there and stops, naming the file, after the honest story before it
 * landed; without it, ralph's next commit runs the program outside the box.
 * In a worktree the box itself keeps the pointer files read-only.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commondir } from '../support/security-git-attacks.js';
import { createScenario, passedOn, type Scenario } from '../support/security-git-scenario.js';

vi.setConfig({ testTimeout: 300_000 });

let scenario: Scenario | undefined;
afterEach(async () => {
  await scenario?.cleanup();
  scenario = undefined;
});

const stories = () =>
  createScenario((place) => [
    { id: 'US-001', title: 'Add one' },
    { id: 'US-002', title: 'Add two', attack: commondir.command(place, 'in-place') },
  ]);

describe('a planted .git/commondir (--no-worktree)', () => {
  it('is refused: ralph stops with the reason, its planted program never runs, the honest story landed', async () => {
    scenario = await stories();
    const s = scenario;
    const result = await s.run('in-place', []);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr + result.stdout).toMatch(/refusing to run git in .*\.git\/commondir exists/);
    expect(await commondir.succeeded(s.project, s.place, 'in-place')).toBe(false);
    // The story before it landed, as git sees it with the planted pointer set aside.
    expect(await readFile(join(s.project.repo.dir, '.git', 'commondir'), 'utf8')).toContain('.git/x');
    await rm(join(s.project.repo.dir, '.git', 'commondir'));
    expect(await passedOn(s.project, 'HEAD')).toEqual(['US-001']);
  });

  it('without the layout check, ralph’s own commit runs the planted program', async () => {
    scenario = await stories();
    const s = scenario;
    const result = await s.run('in-place', ['git-layout']);
    expect(await commondir.succeeded(s.project, s.place, 'in-place'), result.stdout + result.stderr).toBe(
      true,
    );
  });
});
