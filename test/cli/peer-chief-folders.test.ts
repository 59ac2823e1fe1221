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

describe('boxes nested under a criterion (openapi-mocks, a real Chief prd.md)', () => {
  const rel = 'wild/dabernathy89/openapi-mocks/.chief/prds/refactor-playwright-example/prd.md';
  const chiefCount = (md: string): number =>
    chiefReadMd(md).stories.reduce((n, s) => n + s.acceptanceCriteria.length, 0);

  it('validate says how many criteria ralph reads, how many Chief counts, and why they differ', async () => {
    const r = await repoWith({ 'prd.md': peerFile(rel) });
    const validate = await runRalph(['validate', 'prd.md'], { cwd: r.dir });
    expect(validate.exitCode).toBe(0);
    const status = JSON.parse((await runRalph(['status', '--json', 'prd.md'], { cwd: r.dir })).stdout) as {
      total: number;
    };
    expect(status.total).toBe(6);
    const m =
      /^ {2}(\d+) criteria; Chief counts (\d+): (\d+) boxes are nested under a criterion, part of that criterion here and a criterion of its own to Chief$/m.exec(
        validate.stdout,
      );
    expect(Number(m?.[2])).toBe(chiefCount(peerFile(rel)));
    expect(Number(m?.[1]) + Number(m?.[3])).toBe(Number(m?.[2]));
    const json = JSON.parse((await runRalph(['validate', '--json', 'prd.md'], { cwd: r.dir })).stdout) as {
      criteria: number;
      chiefCriteria: number;
    };
    expect([json.criteria, json.chiefCriteria]).toEqual([Number(m?.[1]), chiefCount(peerFile(rel))]);
  });

  it('convert md -> json puts no box markup in a criterion, and json -> md gives Chief the same boxes', async () => {
    const r = await repoWith({ 'prd.md': peerFile(rel) });
    const toJson = await runRalph(['convert', 'prd.md', '--to', 'json', '-o', 'prd.json'], { cwd: r.dir });
    expect(toJson.exitCode).toBe(0);
    const json = JSON.parse(await readFile(join(r.dir, 'prd.json'), 'utf8')) as {
      userStories: { acceptanceCriteria: string[] }[];
    };
    const criteria = json.userStories.flatMap((s) => s.acceptanceCriteria);
    expect(criteria.filter((c) => /^\s*[-*+]\s+\[[ xX]\]/m.test(c))).toEqual([]);
    expect(criteria.some((c) => c.includes('\n  - ☐ Test navigates'))).toBe(true);
    const back = await runRalph(['convert', 'prd.json', '--to', 'md'], { cwd: r.dir });
    expect(back.exitCode).toBe(0);
    expect(chiefCount(back.stdout)).toBe(chiefCount(peerFile(rel)));
  });
});
