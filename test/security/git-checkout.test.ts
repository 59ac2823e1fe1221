/**
 * Attacks 1, 3, 4, 7 and 8 of the hostile checkout (test/support/security-git-attacks.ts):
 * a real Claude Code run under the real bubblewrap, its shell command the
 * attack. With every protection on, each fails and the honest work lands; with
 * its protection removed (through ralph's own environment only), each gets through.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fsmonitor,
  type GitAttack,
  husky,
  type Mode,
  progressLink,
  refs,
  runFolderSwap,
} from '../support/security-git-attacks.js';
import {
  all,
  attackingStories,
  createScenario,
  none,
  passedOn,
  type Scenario,
  through,
} from '../support/security-git-scenario.js';

vi.setConfig({ testTimeout: 300_000 });

const FULL = process.env.RALPH_SECURITY_FULL === '1';

let scenario: Scenario | undefined;
afterEach(async () => {
  await scenario?.cleanup();
  scenario = undefined;
});

const ATTACKS: readonly GitAttack[] = [fsmonitor, husky, progressLink, refs, runFolderSwap];
const attacksIn = (mode: Mode) => ATTACKS.filter((a) => a.modes.includes(mode));

async function scenarioFor(mode: Mode, attacks: readonly GitAttack[]): Promise<Scenario> {
  scenario = await createScenario(
    attackingStories(attacks, mode),
    attacks.flatMap((a) => (a.prepare ? [a.prepare] : [])),
  );
  return scenario;
}

const MODES: readonly Mode[] = ['worktree', 'in-place', 'parallel'];

describe.each(MODES)('the hostile checkout, %s', (mode) => {
  it('every protection on: each attack fails, the honest stories land', async () => {
    const attacks = attacksIn(mode);
    const s = await scenarioFor(mode, attacks);
    const releaseBefore = await s.project.repo.git('rev-parse', 'release');
    const branch = mode === 'in-place' ? 'HEAD' : 'ralph/demo';
    const result = await s.run(mode, []);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(await through(attacks, s, mode)).toEqual(none(attacks));
    expect(await passedOn(s.project, branch)).toEqual(
      mode === 'parallel' ? ['US-001', 'US-002'] : ['US-001'],
    );
    expect(await s.project.repo.git('rev-parse', 'release')).toBe(releaseBefore);
    expect(result.stdout).toContain('put back refs/heads/release, which the attempt moved');
    expect(result.stdout).toContain('put back refs/tags/planted-tag, which the attempt created');
    if (attacks.includes(progressLink)) {
      expect(result.stdout).toContain('removed .ralph/prds/demo/progress.md');
      // The learning went where ralph keeps it, in the branch, not through the link.
      expect(await s.project.repo.git('show', `${branch}:.ralph/prds/demo/progress.md`)).toContain(
        'evil.example',
      );
    }
  });

  // Sequential in its worktree and in place always; the parallel run's with RALPH_SECURITY_FULL=1.
  it.runIf(FULL || mode !== 'parallel')('each attack gets through with its protection removed', async () => {
    const attacks = attacksIn(mode);
    const s = await scenarioFor(mode, attacks);
    const result = await s.run(mode, [...new Set(attacks.map((a) => a.protection))]);
    expect(await through(attacks, s, mode), result.stdout + result.stderr).toEqual(all(attacks));
  });

  // One protection removed at a time: only its own attacks get through.
  for (const protection of [...new Set(attacksIn(mode).map((a) => a.protection))]) {
    it.runIf(FULL)(`only ${protection} removed: only its attacks get through`, async () => {
      const attacks = attacksIn(mode);
      const s = await scenarioFor(mode, attacks);
      const result = await s.run(mode, [protection]);
      const expected = Object.fromEntries(attacks.map((a) => [a.name, a.protection === protection]));
      expect(await through(attacks, s, mode), result.stdout + result.stderr).toEqual(expected);
    });
  }
});
