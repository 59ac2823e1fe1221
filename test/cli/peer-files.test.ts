/**
 * The built CLI on the peers' own task files (test/fixtures/peers/, see its
 * README for repository, path and commit), in real temporary git repos:
 * what `ralph validate` says, what `ralph status` reads, what `ralph
 * convert` keeps.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { fencedBlocks, goTestStrings, peerFile } from '../support/peer-fixtures.js';
import { chiefReadMd, tuiReadJson } from '../support/peer-readers.js';
import { runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();

interface StatusJson {
  project: string;
  stories: { id: string; title: string; status: string; priority: number }[];
}

async function status(dir: string, target: string): Promise<StatusJson> {
  const result = await runRalph(['status', '--json', target], { cwd: dir });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => `US-${String(i + 1).padStart(3, '0')}`);

describe("Chief's own PRD", () => {
  it('ralph/prd-chief-tui.md reads as its 26 stories, the Phase headings grouping them', async () => {
    const r = await repoWith({ 'prd.md': peerFile('chief/ralph/prd-chief-tui.md') });
    const validate = await runRalph(['validate', 'prd.md'], { cwd: r.dir });
    expect(validate.stderr).toBe('');
    expect(validate.exitCode).toBe(0);
    expect(validate.stdout).toMatch(/^prd\.md: valid, 26 stories/m);
    const read = await status(r.dir, 'prd.md');
    expect(read.project).toBe('Chief TUI - Autonomous Agent Loop for PRDs');
    expect(read.stories.map((s) => s.id)).toEqual(range(26));
    expect(read.stories.map((s) => s.priority)).toEqual(range(26).map((_, i) => i + 1));
  });

  it('ralph/prd.json holds the same 26 stories', async () => {
    const r = await repoWith({ 'prd.json': peerFile('chief/ralph/prd.json') });
    expect((await status(r.dir, 'prd.json')).stories.map((s) => s.id)).toEqual(range(26));
  });

  it("the docs' examples: statuses, continued descriptions and criteria, each criterion's tick through md -> json -> md", async () => {
    const [example, annotated] = fencedBlocks(peerFile('chief/docs/concepts/prd-format.md'), 'markdown');
    const r = await repoWith({ 'example.md': example ?? '', 'annotated.md': annotated ?? '' });
    const plain = await status(r.dir, 'example.md');
    expect(plain.stories.map((s) => [s.id, s.status, s.priority])).toEqual([
      ['US-001', 'todo', 1],
      ['US-002', 'todo', 2],
      ['US-003', 'todo', 3],
    ]);

    const read = await status(r.dir, 'annotated.md');
    expect(read.stories.map((s) => [s.id, s.status])).toEqual([
      ['US-001', 'done'],
      ['US-002', 'in-progress'],
      ['US-003', 'todo'],
    ]);
    const toJson = await runRalph(['convert', 'annotated.md', '--to', 'json'], { cwd: r.dir });
    expect(toJson.exitCode).toBe(0);
    const json = JSON.parse(toJson.stdout) as {
      userStories: { acceptanceCriteria: string[]; acceptanceCriteriaChecked?: boolean[] }[];
    };
    const [first, second] = json.userStories;
    expect(first?.acceptanceCriteria).toHaveLength(5);
    expect(first?.acceptanceCriteria[0]).toMatch(/^Registration form with email .* and password fields$/);
    expect(second?.acceptanceCriteria).toHaveLength(4);
    expect(second?.acceptanceCriteriaChecked).toEqual([true, false, false, false]);

    await r.write('annotated.json', toJson.stdout);
    const back = await runRalph(['convert', 'annotated.json', '--to', 'md'], { cwd: r.dir });
    expect(back.stdout).toContain('- [x] Login form with email and');
    expect(back.stdout).toMatch(/- \[ \] Error message for invalid .* credentials\n/);
  });

  it("its older prd.json without acceptanceCriteria: a warning, an error only with --strict (migrate_test.go's file)", async () => {
    const json = goTestStrings(peerFile('chief/internal/prd/migrate_test.go')).get(
      'TestMigrateFromJSON',
    )?.[0];
    const r = await repoWith({ 'prd.json': json ?? '' });
    const plain = await runRalph(['validate', 'prd.json'], { cwd: r.dir });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toMatch(
      /prd\.json:5:5: warning: userStories\[0\]\.acceptanceCriteria: US-001 has no/,
    );
    expect(plain.stdout).toMatch(/valid, 3 stories/);
    const strict = await runRalph(['validate', '--strict', 'prd.json'], { cwd: r.dir });
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toMatch(/prd\.json:5:5: userStories\[0\]\.acceptanceCriteria: US-001 has no/);
  });
});

describe("ralph-tui's files", () => {
  it('testing/test-prd.json: `name` is the project', async () => {
    const r = await repoWith({ 'prd.json': peerFile('ralph-tui/testing/test-prd.json') });
    const read = await status(r.dir, 'prd.json');
    expect(read.project).toBe('Ralph-TUI Test Feature');
    expect(read.stories.map((s) => s.id)).toEqual([
      'TEST-001',
      'TEST-002',
      'TEST-003',
      'TEST-004',
      'TEST-005',
    ]);
  });

  it("the PRD skill's example reads as its 4 stories, without the PRD: prefix", async () => {
    const skill = peerFile('ralph-tui/skills/ralph-tui-prd/SKILL.md');
    // The second [PRD] block is the worked example (the first is the bare template).
    const start = skill.indexOf('[PRD]\n# PRD: Dark Mode');
    const prd = skill.slice(start + 6, skill.indexOf('[/PRD]', start));
    const r = await repoWith({ 'prd.md': prd });
    const read = await status(r.dir, 'prd.md');
    expect(read.project).toBe('Dark Mode for Ralph TUI');
    expect(read.stories.map((s) => s.id)).toEqual(range(4));
  });
});

describe("snarktank's files", () => {
  it('prd.json.example and the PRD skill example read as their 4 stories', async () => {
    const example = fencedBlocks(peerFile('snarktank-ralph/skills/prd/SKILL.md'), 'markdown').find((b) =>
      b.startsWith('# PRD:'),
    );
    const r = await repoWith({
      'prd.json': peerFile('snarktank-ralph/prd.json.example'),
      'prd.md': example ?? '',
    });
    expect((await status(r.dir, 'prd.json')).stories.map((s) => s.id)).toEqual(range(4));
    const md = await status(r.dir, 'prd.md');
    expect(md.project).toBe('Task Priority System');
    expect(md.stories.map((s) => s.id)).toEqual(range(4));
  });
});

describe('stories are never silently lost', () => {
  const mixed =
    '# PRD: Billing\n\n## User Stories\n\n#### US-001: First\n- [ ] a\n\n### US-002: Second\n- [ ] b\n\n#### US-003: Third\n- [ ] c\n';

  it('a #### story before a ### one, and after it, are each read: validate counts 3 and status lists them', async () => {
    const r = await repoWith({ 'prd.md': mixed });
    const validate = await runRalph(['validate', 'prd.md'], { cwd: r.dir });
    expect(validate.exitCode).toBe(0);
    expect(validate.stdout).toMatch(/^prd\.md: valid, 3 stories/m);
    const read = await status(r.dir, 'prd.md');
    expect(read.project).toBe('Billing');
    expect(read.stories.map((s) => [s.id, s.title])).toEqual([
      ['US-001', 'First'],
      ['US-002', 'Second'],
      ['US-003', 'Third'],
    ]);
    expect(await readFile(join(r.dir, 'prd.md'), 'utf8')).toBe(mixed);
  });

  it('a ## story heading and an id heading without a colon are stories, not skipped', async () => {
    const text =
      '# P\n\n## User Stories\n\n## US-001: Top level\n- [ ] a\n\n### US-002 Without a colon\n- [ ] b\n\n### US-003: Last\n- [ ] c\n';
    const r = await repoWith({ 'prd.md': text });
    expect((await status(r.dir, 'prd.md')).stories.map((s) => s.id)).toEqual(['US-001', 'US-002', 'US-003']);
  });

  it('a story heading ralph cannot read is refused with its line, exit 2', async () => {
    const text = '# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n##### US-002: Too deep\n- [ ] b\n';
    const r = await repoWith({ 'prd.md': text });
    const validate = await runRalph(['validate', 'prd.md'], { cwd: r.dir });
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toMatch(/^prd\.md:8:1: "##### US-002: Too deep" is not read as a story/m);
  });
});

describe('files found in the wild, through the built CLI', () => {
  const greetup = 'wild/MiniCodeMonkey/greetup/.chief/prds/main/prd.md';

  it('greetup prd.md -> json -> md: no new boxes, and Chief reads as many criteria as before', async () => {
    const original = peerFile(greetup);
    const r = await repoWith({ 'prd.md': original });
    const toJson = await runRalph(['convert', 'prd.md', '--to', 'json', '-o', 'prd.json'], { cwd: r.dir });
    expect(toJson.exitCode).toBe(0);
    const back = await runRalph(['convert', 'prd.json', '--to', 'md'], { cwd: r.dir });
    expect(back.exitCode).toBe(0);
    const open = (md: string) => (md.match(/^\s*- \[ \]/gm) ?? []).length;
    expect([open(original), open(back.stdout)]).toEqual([0, 0]);
    const criteria = (md: string) => chiefReadMd(md).stories.map((s) => [s.id, s.acceptanceCriteria.length]);
    expect(criteria(back.stdout)).toEqual(criteria(original));
    expect(back.stdout).toContain(
      '- [x] Per spec section 5.9.3, verify each view uses the correct pagination:\n  - Explore page (events)',
    );
  });

  it("ralph-tui's tasks/prd.json -> md -> json keeps its metadata, and ralph-tui's tracker takes the result", async () => {
    const original = peerFile('wild/subsy/ralph-tui/tasks/prd.json');
    const r = await repoWith({ 'prd.json': original });
    const toMd = await runRalph(['convert', 'prd.json', '--to', 'md', '-o', 'prd.md'], { cwd: r.dir });
    expect(toMd.exitCode).toBe(0);
    const back = await runRalph(['convert', 'prd.md', '--to', 'json'], { cwd: r.dir });
    expect(back.exitCode).toBe(0);
    expect(JSON.parse(back.stdout).metadata).toEqual(JSON.parse(original).metadata);
    const tracker = tuiReadJson(back.stdout);
    expect(tracker.ok && tracker.stories.length).toBe(16);
  });

  it('a spec directory with its .ralph/stories.txt: status lists the queue in its order, an x line skipped', async () => {
    const root = 'wild/becerra-alberto/ralphetamine/sandbox/run-parallel/';
    const files = Object.fromEntries(
      [
        '.ralph/stories.txt',
        'specs/epic-1/story-1.1-init-schema.md',
        'specs/epic-1/story-1.2-seed-data.md',
        'specs/epic-2/story-2.1-list-endpoint.md',
        'specs/epic-2/story-2.2-search-endpoint.md',
        'specs/epic-2/story-2.3-detail-endpoint.md',
        'specs/epic-3/story-3.1-cli-interface.md',
      ].map((rel) => [rel, peerFile(`${root}${rel}`)]),
    );
    const r = await repoWith(files);
    const read = await status(r.dir, 'specs');
    expect(read.stories.map((s) => s.id)).toEqual(['1.1', '1.2', '2.1', '2.2', '2.3', '3.1']);
    await r.write('.ralph/stories.txt', '2.3 | first\nx 2.2 | later\n1.1 | a\n1.2 | b\n2.1 | c\n3.1 | d\n');
    const validate = await runRalph(['validate', 'specs'], { cwd: r.dir });
    expect(validate.stdout).toMatch(/3\.1 depends on 2\.2, which .*stories\.txt skips: not waited for/);
    const reordered = await runRalph(['status', '--json', 'specs'], { cwd: r.dir });
    expect(reordered.exitCode).toBe(0);
    const ids = (JSON.parse(reordered.stdout) as StatusJson).stories.map((s) => s.id);
    expect(ids).toEqual(['2.3', '1.1', '1.2', '2.1', '3.1']);
  });
});
