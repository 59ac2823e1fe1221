/**
 * Attacks 5, 9 and 13 as real Claude Code runs under the real bubblewrap
 * (see test/support/security-box-attacks.ts): with the box's protections,
 * each fails and every story still lands honestly — the attacked one on its
 * next attempt; with them taken out of bwrap's command line, each succeeds.
 * In worktree mode and in place, sequential and `--parallel 2`: two of the
 * four by default, all four with RALPH_SECURITY_FULL=1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentLoopProject } from '../support/agent-loop-project.js';
import {
  type AttackProject,
  attackProject,
  HOOK_MARK,
  pathWith,
  readText,
  SERVE_TOKEN,
  scratchDir,
  shownToModel,
  unprotectedBwrap,
} from '../support/security-box-attacks.js';
import { removeTempDir } from '../support/temp-dir.js';

vi.setConfig({ testTimeout: 600_000 });

const FULL = process.env.RALPH_SECURITY_FULL === '1';
const REAL_BWRAP = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();
const HAS_GDB = existsSync('/usr/bin/gdb');
const describeBoxed = REAL_BWRAP && HAS_GDB ? describe : describe.skip;

interface Mode {
  name: string;
  args: string[];
  /** Where the run's stories land. */
  ref: string;
}
const MODES: Mode[] = [
  { name: 'worktree, sequential', args: [], ref: 'ralph/demo' },
  { name: '--no-worktree, --parallel 2', args: ['--no-worktree', '--parallel', '2'], ref: 'HEAD' },
  ...(FULL
    ? [
        { name: 'worktree, --parallel 2', args: ['--parallel', '2'], ref: 'ralph/demo' },
        { name: '--no-worktree, sequential', args: ['--no-worktree'], ref: 'HEAD' },
      ]
    : []),
];

let attack: AttackProject | undefined;
let bin: string | undefined;
afterEach(async () => {
  await attack?.project.cleanup();
  if (bin) await removeTempDir(bin);
  attack = bin = undefined;
});

const show = (p: AgentLoopProject, ref: string, file: string) =>
  p.repo.git('show', `${ref}:${file}`).catch(() => null);

async function expectAllLanded(p: AgentLoopProject, ref: string) {
  const prd = JSON.parse((await show(p, ref, '.ralph/prds/demo/prd.json')) ?? '{}') as {
    userStories: { passes: boolean }[];
  };
  expect(prd.userStories.map((s) => s.passes)).toEqual([true, true, true]);
  expect(await show(p, ref, 'greet.txt')).toBe('hello');
  expect(await show(p, ref, 'thanks.txt')).toBe('thanks');
}

describeBoxed('attacks 5, 9, 13 from inside the box (real claude, real bwrap)', () => {
  for (const mode of MODES) {
    it(`${mode.name}: each fails; the attacked story lands honestly on its next attempt`, async () => {
      attack = await attackProject();
      const { project: p, configDir } = attack;
      const result = await p.run(['demo', '--headless', '--sandbox', ...mode.args], attack.env);
      expect(result.stderr, result.stdout).toBe('');
      expect(result.exitCode, result.stdout).toBe(0);
      await expectAllLanded(p, mode.ref);
      // 13: no forged DONE reached ralph: the attack's attempt failed, the honest one passed.
      expect(result.stdout).toMatch(/US-002 attempt 1\/\d+ failed/);
      expect(result.stdout).toMatch(/US-002 passed on attempt 2/);
      expect(await show(p, mode.ref, 'bye.txt')).toBe('bye, honestly');
      // 5: the hook stayed in the run's copy; the rotated login came back.
      expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
      expect(await readText(join(configDir, '.credentials.json'))).toBe(
        '{"claudeAiOauth":{"accessToken":"rotated"}}',
      );
      // 9 and 13 as the attack saw them: no token inside, gdb refused.
      const seen = shownToModel(p);
      expect(seen).toContain('token-seen: absent');
      expect(seen).toMatch(/forge: gdb exit [1-9]/);
      expect(seen).not.toContain(SERVE_TOKEN);
      expect(await p.repo.git('log', '--all', '-p')).not.toContain(SERVE_TOKEN);
    });
  }

  it('with the protections taken out of bwrap’s command line, each attack succeeds', async () => {
    attack = await attackProject();
    bin = await unprotectedBwrap(await scratchDir(), REAL_BWRAP);
    const { project: p, configDir } = attack;
    const result = await p.run(['demo', '--headless', '--sandbox', '--no-worktree'], {
      ...attack.env,
      PATH: pathWith(bin),
    });
    expect(result.exitCode, result.stdout).toBe(0);
    // 13: the forged DONE passed the story on the attempt whose model said it could not finish.
    expect(result.stdout).toMatch(/US-002 passed on attempt 1/);
    expect(await show(p, 'HEAD', 'bye.txt')).toBe('bye');
    // 9: the token was read inside.
    expect(await show(p, 'HEAD', 'token-seen.txt')).toBe(`token-seen: ${SERVE_TOKEN}`);
    expect(shownToModel(p)).toContain('forge: gdb exit 0');
    // 5: the hook reached the real configuration, where the next plain session would run it.
    expect(await readText(join(configDir, 'settings.json'))).toContain(HOOK_MARK);
    await expectAllLanded(p, 'HEAD');
  });
});
