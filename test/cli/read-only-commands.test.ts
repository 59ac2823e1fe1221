/** The built CLI's read-only commands, run in real temporary git repositories. */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sources/', import.meta.url));

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function repoWith(files: Record<string, string> = {}): Promise<GitFixture> {
  repo = await createGitFixture({ files: { 'README.md': '# t\n', ...files } });
  return repo;
}

interface StatusJson {
  name: string;
  format: string;
  stories: { id: string; passes: boolean; status: string }[];
  next: { id: string; title: string } | null;
}

const statusOf = async (dir: string, target: string): Promise<StatusJson> => {
  const result = await runRalph(['status', '--json', target], { cwd: dir });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
};

describe('ralph status --json', () => {
  it('lists a snarktank prd.json with passes and the next story', async () => {
    const r = await repoWith({ 'prd.json': await readFile(join(FIXTURES, 'prd.json'), 'utf8') });
    const status = await statusOf(r.dir, 'prd.json');
    expect(status.format).toBe('prd-json');
    expect(status.stories.length).toBeGreaterThan(2);
    const expected = JSON.parse(await readFile(join(FIXTURES, 'prd.json'), 'utf8')) as {
      userStories: { id: string; passes: boolean }[];
    };
    expect(status.stories.map((s) => [s.id, s.passes])).toEqual(
      expected.userStories.map((s) => [s.id, s.passes]),
    );
    expect(status.next).not.toBeNull();
    expect(status.stories.find((s) => s.id === status.next?.id)?.passes).toBe(false);
  });

  it('lists a prd.md, continuing the story in progress', async () => {
    const r = await repoWith({ 'prd.md': await readFile(join(FIXTURES, 'prd.md'), 'utf8') });
    const status = await statusOf(r.dir, 'prd.md');
    expect(status.format).toBe('prd-md');
    expect(status.stories[0]).toMatchObject({ id: 'US-001', passes: true });
    expect(status.next?.id).toBe('US-002');
  });

  it('lists a spec directory of 12+ stories across 2 epics in numeric order, honouring depends_on', async () => {
    const r = await repoWith();
    await cp(join(FIXTURES, 'specs-project', 'specs'), join(r.dir, 'specs'), { recursive: true });
    const status = await statusOf(r.dir, 'specs');
    expect(status.format).toBe('spec-dir');
    expect(status.stories.length).toBeGreaterThanOrEqual(12);
    const ids = status.stories.map((s) => s.id);
    expect(ids.indexOf('1.2')).toBeLessThan(ids.indexOf('1.10'));
    expect(ids.indexOf('1.10')).toBeLessThan(ids.indexOf('2.1'));
    expect(status.next).not.toBeNull();
  });
});

describe('ralph validate', () => {
  it('names line and column of a trailing comma, exits 2, and leaves the file alone', async () => {
    const text =
      '{\n  "project": "x",\n  "userStories": [\n    {"id": "US-001", "title": "a", "acceptanceCriteria": [], "priority": 1, "passes": false},\n  ]\n}\n';
    const r = await repoWith({ 'prd.json': text });
    const result = await runRalph(['validate', 'prd.json'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    // The comma itself, at the end of line 4.
    expect(result.stderr).toMatch(/prd\.json:4:93: .*trailing comma/);
    expect(await readFile(join(r.dir, 'prd.json'), 'utf8')).toBe(text);
  });

  it('names the ids of a dependency cycle', async () => {
    const story = (id: string, dep: string) => ({
      id,
      title: id,
      acceptanceCriteria: ['x'],
      priority: 1,
      passes: false,
      dependsOn: [dep],
    });
    const text = `${JSON.stringify({ project: 'x', userStories: [story('A', 'B'), story('B', 'A')] }, null, 2)}\n`;
    const r = await repoWith({ 'prd.json': text });
    const result = await runRalph(['validate', 'prd.json'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cycle.*A.*B/);
    expect(await readFile(join(r.dir, 'prd.json'), 'utf8')).toBe(text);
  });

  it('reports a schema error with its JSON path', async () => {
    const text = `${JSON.stringify({ project: 'x', userStories: [{ id: 'A', title: 'a', acceptanceCriteria: [], priority: 'urgent', passes: false }] }, null, 2)}\n`;
    const r = await repoWith({ 'prd.json': text });
    const result = await runRalph(['validate', 'prd.json'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/userStories\[0\]\.priority/);
  });

  it('accepts a valid file with exit 0', async () => {
    const r = await repoWith({ 'prd.json': await readFile(join(FIXTURES, 'prd.json'), 'utf8') });
    const result = await runRalph(['validate', 'prd.json'], { cwd: r.dir });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });
});

describe('ralph convert', () => {
  it("md -> json -> md keeps ids, titles, criteria and each one's tick, priorities, statuses and dependencies", async () => {
    const r = await repoWith({ 'prd.md': await readFile(join(FIXTURES, 'prd.md'), 'utf8') });
    const toJson = await runRalph(['convert', 'prd.md', '--to', 'json', '-o', 'out.json'], { cwd: r.dir });
    expect(toJson.exitCode).toBe(0);
    const back = await runRalph(['convert', 'out.json', '--to', 'md', '-o', 'back.md'], { cwd: r.dir });
    expect(back.exitCode).toBe(0);
    const a = await statusOf(r.dir, 'prd.md');
    const b = await statusOf(r.dir, 'back.md');
    const c = await statusOf(r.dir, 'out.json');
    const shape = (s: StatusJson) => s.stories.map((x) => ({ ...x }));
    expect(shape(b)).toEqual(shape(a));
    expect(shape(c)).toEqual(shape(a));
    // Each criterion's own tick survives too (US-002 has one ticked box of three).
    const original = await readFile(join(r.dir, 'prd.md'), 'utf8');
    const criteria = (text: string) => text.match(/^- \[[ x]\] .*$/gm);
    expect(criteria(await readFile(join(r.dir, 'back.md'), 'utf8'))).toEqual(criteria(original));
  });
});

describe('init, list and names', () => {
  it('init scaffolds config, gitignore and an example PRD that list and validate accept', async () => {
    const r = await repoWith();
    const init = await runRalph(['init'], { cwd: r.dir });
    expect(init.exitCode).toBe(0);
    // The ignore rules once, in .ralph/.gitignore; git ignores run state and worktrees through it.
    expect(existsSync(join(r.dir, '.gitignore'))).toBe(false);
    expect(await readFile(join(r.dir, '.ralph/.gitignore'), 'utf8')).toBe('runs/\nworktrees/\n');
    await mkdir(join(r.dir, '.ralph/runs/x'), { recursive: true });
    await writeFile(join(r.dir, '.ralph/runs/x/state.json'), '{}');
    expect(await r.git('status', '--porcelain', '--untracked-files=all')).not.toContain('runs/');
    const list = await runRalph(['list'], { cwd: r.dir });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^example\s+0\/\d+/m);
    const validate = await runRalph(['validate'], { cwd: r.dir });
    expect(validate.stderr).toBe('');
    expect(validate.exitCode).toBe(0);
  });

  it('rejects a PRD name with path traversal with exit 2', async () => {
    const r = await repoWith();
    await writeFile(join(r.dir, 'x'), '');
    const result = await runRalph(['status', '../x'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
  });

  it('a bad flag prints usage and exits 2', async () => {
    const r = await repoWith();
    const result = await runRalph(['run', '--max-iterations', 'lots'], { cwd: r.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/max-iterations/);
  });
});
