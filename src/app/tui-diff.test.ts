import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import { workInProgress } from './tui-diff.js';

describe("the TUI's diff of work in progress", () => {
  let repo: TempRepo | undefined;
  afterEach(async () => repo?.cleanup());

  it('runs no fsmonitor or diff driver the checkout names, which a plain git diff would run', async () => {
    repo = await makeTempRepo();
    const start = await repo.commit('start', { 'a.txt': 'one\n' });
    // What an agent can plant in its checkout: an fsmonitor in the repository's config and a
    // diff driver through .gitattributes, each leaving a marker when git runs it.
    const fsmonitorMark = path.join(repo.dir, '..', `${path.basename(repo.dir)}-fsmonitor`);
    const driverMark = path.join(repo.dir, '..', `${path.basename(repo.dir)}-driver`);
    await repo.git('config', 'core.fsmonitor', `touch ${fsmonitorMark}; true`);
    await repo.git('config', 'diff.evil.command', `touch ${driverMark}; true`);
    await repo.commit('work', { '.gitattributes': '*.txt diff=evil\n', 'a.txt': 'two\n' });
    await repo.write('a.txt', 'three\n');

    const shown = await workInProgress(repo.dir, { label: 'US-001 attempt 1', headBefore: start });
    expect(shown).toContain('US-001 attempt 1');
    expect(shown).toContain('+three');
    expect(existsSync(fsmonitorMark)).toBe(false);
    expect(existsSync(driverMark)).toBe(false);

    // The same look with plain git runs both: the plant is live, and only the hardening stops it.
    execFileSync('git', ['diff', 'HEAD'], { cwd: repo.dir });
    expect(existsSync(fsmonitorMark)).toBe(true);
    expect(existsSync(driverMark)).toBe(true);
  });
});
