/**
 * Attack 6 (`--no-worktree`, two runs): the first run's agent commits a
 * `.ralph/config.yaml` that widens the next run's sandbox, and rewrites the
 * tracked agent wrapper the config names so that its `--version` (the next
 * run's pre-start check) writes outside. The second run's agent tries the
 * write the widened box would allow. With the protections, the config change
 * is undone (and said), the check runs inside the box, and both writes fail;
 * without them, both get through.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  configWidened,
  type GitAttack,
  together,
  useWrapperAgent,
  versionOutside,
  widenedWrite,
} from '../support/security-git-attacks.js';
import { createScenario, passedOn, type Scenario, through } from '../support/security-git-scenario.js';

vi.setConfig({ testTimeout: 300_000 });

const FULL = process.env.RALPH_SECURITY_FULL === '1';
const ATTACKS: readonly GitAttack[] = [configWidened, versionOutside];

let scenario: Scenario | undefined;
afterEach(async () => {
  await scenario?.cleanup();
  scenario = undefined;
});

async function twoRuns(unprotected: readonly string[]) {
  scenario = await createScenario(
    (place) => [
      { id: 'US-001', title: 'Add one', attack: together(ATTACKS, place, 'in-place') },
      { id: 'US-002', title: 'Add two', before: widenedWrite(place) },
    ],
    [useWrapperAgent],
  );
  const s = scenario;
  const first = await s.run('in-place', unprotected, ['--story', 'US-001']);
  const second = await s.run('in-place', unprotected, ['--story', 'US-002']);
  return { s, first, second };
}

describe('a committed config and agent wrapper aimed at the next run (--no-worktree)', () => {
  it('is undone and boxed: the next run’s box is the user’s, its --version check runs inside', async () => {
    const { s, first, second } = await twoRuns([]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('put back .ralph/config.yaml, which the attempt changed');
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(await through(ATTACKS, s, 'in-place')).toEqual({
      [configWidened.name]: false,
      [versionOutside.name]: false,
    });
    expect(await s.project.read('.ralph/config.yaml')).not.toContain('allowWrite');
    expect(await passedOn(s.project, 'HEAD')).toEqual(['US-001', 'US-002']);
  });

  it('gets through without them', async () => {
    const { s, first, second } = await twoRuns(ATTACKS.map((a) => a.protection));
    expect(await through(ATTACKS, s, 'in-place'), first.stdout + second.stdout + second.stderr).toEqual({
      [configWidened.name]: true,
      [versionOutside.name]: true,
    });
  });

  for (const attack of ATTACKS) {
    it.runIf(FULL)(`${attack.protection} alone removed: ${attack.name} gets through`, async () => {
      const { s } = await twoRuns([attack.protection]);
      expect(await attack.succeeded(s.project, s.place, 'in-place')).toBe(true);
    });
  }
});
