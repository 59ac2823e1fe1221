/**
 * Chief users' projects through the built CLI: `.chief/prds/<name>/` found
 * by name and listed like ralph's own `.ralph/prds/<name>/`, and an older
 * Chief folder (prd.json beside prd.md) read with the statuses Chief
 * migrates from it, with a warning saying so. The folders are real ones
 * (test/fixtures/peers/wild/, repository, path and commit in its README).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { peerFile } from '../support/peer-fixtures.js';
import { chiefMigrate, chiefReadMd } from '../support/peer-readers.js';
import { runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();

const KILN = 'wild/datashaman/kiln-action/.chief/prds/main';
const DOMAIN = 'wild/sasha-computer/domain-search/.chief/prds/generalize';

const chiefDone = (folder: string): number =>
  chiefReadMd(chiefMigrate(peerFile(`${folder}/prd.md`), peerFile(`${folder}/prd.json`))).stories.filter(
    (s) => s.passes,
  ).length;

function chiefProject(): Record<string, string> {
  return {
    '.chief/prds/main/prd.md': peerFile(`${KILN}/prd.md`),
    '.chief/prds/main/prd.json': peerFile(`${KILN}/prd.json`),
    '.chief/prds/generalize/prd.md': peerFile(`${DOMAIN}/prd.md`),
    '.chief/prds/generalize/prd.json': peerFile(`${DOMAIN}/prd.json`),
  };
}

describe("Chief's .chief/prds/ layout", () => {
  it('`ralph list` lists each Chief PRD with the done count Chief shows', async () => {
    const r = await repoWith(chiefProject());
    const list = await runRalph(['list', '--json'], { cwd: r.dir });
    expect(list.exitCode).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; done: number; total: number }[];
    expect(rows.map((row) => [row.name, row.done])).toEqual([
      ['generalize', chiefDone(DOMAIN)],
      ['main', chiefDone(KILN)],
    ]);
    expect(rows[1]?.total).toBe(18);
  });

  it('`ralph status <name>` finds .chief/prds/<name>/, warns that the statuses come from prd.json, and writes nothing', async () => {
    const r = await repoWith(chiefProject());
    const status = await runRalph(['status', '--json', 'generalize'], { cwd: r.dir });
    expect(status.exitCode).toBe(0);
    const read = JSON.parse(status.stdout) as { path: string; done: number; total: number };
    expect(read.path).toMatch(/\.chief\/prds\/generalize\/prd\.md$/);
    expect([read.done, read.total]).toEqual([chiefDone(DOMAIN), 4]);
    expect(status.stderr).toMatch(
      /\.chief\/prds\/generalize\/prd\.json: warning: prd\.json beside prd\.md is an older Chief's status file: its statuses \(2 done, 1 in progress\) are read into prd\.md as Chief migrates them/,
    );
    expect(await readFile(join(r.dir, '.chief/prds/generalize/prd.json'), 'utf8')).toBe(
      peerFile(`${DOMAIN}/prd.json`),
    );
    expect(await readFile(join(r.dir, '.chief/prds/generalize/prd.md'), 'utf8')).toBe(
      peerFile(`${DOMAIN}/prd.md`),
    );
  });

  it('with no target, the Chief PRD named main is the one; a path inside .chief/prds/ is that same PRD', async () => {
    const r = await repoWith(chiefProject());
    const byDefault = await runRalph(['status', '--json'], { cwd: r.dir });
    expect(byDefault.exitCode).toBe(0);
    expect((JSON.parse(byDefault.stdout) as { name: string }).name).toBe('main');
    const byPath = await runRalph(['status', '--json', '.chief/prds/main/prd.md'], { cwd: r.dir });
    expect((JSON.parse(byPath.stdout) as { name: string; done: number }).name).toBe('main');
  });

  it('a mistyped name lists the Chief PRDs among those there are', async () => {
    const r = await repoWith(chiefProject());
    const wrong = await runRalph(['status', 'mian'], { cwd: r.dir });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/\.chief\/prds\/mian\/prd\.md/);
    expect(wrong.stderr).toMatch(/PRDs: generalize, main\./);
  });

  it("ralph's own .ralph/prds/<name>/ comes first when both have the name", async () => {
    const r = await repoWith({
      ...chiefProject(),
      '.ralph/prds/main/prd.md': '# Mine\n\n### US-001: Only\n- [ ] a\n',
    });
    const status = await runRalph(['status', '--json', 'main'], { cwd: r.dir });
    expect((JSON.parse(status.stdout) as { project: string }).project).toBe('Mine');
  });
});
