/**
 * Inputs that used to validate and then break the run, or crash with a
 * stack: the built CLI must refuse each with exit 2, a file:line:column and
 * a sentence, and leave every file as it was.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIAS_BOMB } from '../support/fuzz-worst-cases.js';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { type CliResult, runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();

const story = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Story ${id}`,
  acceptanceCriteria: ['Tests pass'],
  priority: 1,
  passes: false,
  ...extra,
});
const prdJson = (stories: unknown[], top: Record<string, unknown> = {}) =>
  `${JSON.stringify({ project: 'p', ...top, userStories: stories }, null, 2)}\n`;

/** Exit 2, no stack trace, no "unexpected error", and the expected located message. */
function refused(result: CliResult, message: RegExp | string): void {
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at |RangeError|ReferenceError|Maximum call stack/);
  if (typeof message === 'string') expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
  expect(result.exitCode).toBe(2);
}

const validate = (dir: string, ...args: string[]) => runRalph(['validate', ...args], { cwd: dir });

describe('7: validate refuses every branch name run would refuse', () => {
  it('a branchName with a trailing space is refused at its position, for validate and status alike', async () => {
    const text = prdJson([story('US-001')], { branchName: 'ralph/feature ' });
    const r = await repoWith({ 'prd.json': text });
    refused(
      await validate(r.dir, 'prd.json'),
      /^prd\.json:3:17: branchName: branch name "ralph\/feature " cannot be used: it contains whitespace/m,
    );
    refused(await runRalph(['status', 'prd.json'], { cwd: r.dir }), /^prd\.json:3:17: branchName: /m);
    expect(await readFile(join(r.dir, 'prd.json'), 'utf8')).toBe(text);
  });

  it('a **Branch:** line git cannot use is refused in a prd.md', async () => {
    const r = await repoWith({
      'prd.md': '# P\n\n**Branch:** ralph/a..b\n\n### US-001: A\n- [ ] Tests pass\n',
    });
    refused(
      await validate(r.dir, 'prd.md'),
      /^prd\.md:3:13: branchName: branch name "ralph\/a\.\.b" cannot be used/m,
    );
  });
});

describe('8: validate refuses story ids that cannot round-trip through signals, refs and file names', () => {
  it.each([
    ['US..1', /it contains "\.\.", which git refs and paths refuse/],
    ['US 1', /it contains whitespace, and the DONE signal reads the id only up to the first space/],
    ['US-1\t', /it contains whitespace/],
    ['a/b', /it contains "\/"/],
    ['US-1\u0007', /control or invisible character/],
  ])('%j: exit 2 with the id and why', async (id, why) => {
    const r = await repoWith({ 'prd.json': prdJson([story(id)]) });
    const result = await validate(r.dir, 'prd.json');
    refused(result, `prd.json:4:5: story id ${JSON.stringify(id)} cannot be used: `);
    refused(result, why);
  });
});

// Several CLI runs per test, some on large files: room for a busy machine.
describe('9: malformed inputs exit 2 with a position and a sentence, never a stack', {
  timeout: 240_000,
}, () => {
  it('a YAML alias bomb in .ralph/config.yaml', async () => {
    const r = await repoWith({
      'prd.json': prdJson([story('US-001')]),
      '.ralph/config.yaml': `${ALIAS_BOMB}\n`,
    });
    const result = await validate(r.dir, 'prd.json');
    refused(
      result,
      /^\.ralph\/config\.yaml:2:8: YAML aliases here expand to more than 1000 nodes \(an alias bomb\?\)/m,
    );
    refused(
      await runRalph(['run', '--dry-run', 'prd.json'], { cwd: r.dir }),
      /^\.ralph\/config\.yaml:2:8: /m,
    );
  });

  it("a YAML alias bomb in a spec file's front matter", async () => {
    const r = await repoWith({ 'specs/epic-1/story-1.1-a.md': `---\n${ALIAS_BOMB}\n---\n# A\n` });
    refused(
      await validate(r.dir, 'specs'),
      /^specs\/epic-1\/story-1\.1-a\.md:3:8: invalid YAML front matter: YAML aliases/m,
    );
    refused(await runRalph(['status', 'specs'], { cwd: r.dir }), /story-1\.1-a\.md:3:8: /);
  });

  it('deep YAML in the config and in front matter', async () => {
    const deep = `checks: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const r = await repoWith({ 'prd.json': prdJson([story('US-001')]), '.ralph/config.yaml': deep });
    refused(
      await validate(r.dir, 'prd.json'),
      /^\.ralph\/config\.yaml:1:\d+: the YAML is nested too deeply/m,
    );
    await r.write('specs/epic-1/story-1.1-a.md', `---\nx: ${'{a: '.repeat(100)}1${'}'.repeat(100)}\n---\n`);
    await r.write('.ralph/config.yaml', '');
    refused(
      await validate(r.dir, 'specs'),
      /story-1\.1-a\.md:2:\d+: invalid YAML front matter: the YAML is nested more than 64 levels deep/,
    );
  });

  it('JSON nested 10,000 deep', async () => {
    const text = `{"project": "p", "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "userStories": []}`;
    const r = await repoWith({ 'prd.json': text });
    refused(await validate(r.dir, 'prd.json'), /^prd\.json:1:278: JSON nested more than 256 levels deep/m);
    refused(await runRalph(['status', 'prd.json'], { cwd: r.dir }), /^prd\.json:1:278: /m);
  });

  it('a 20,000-story dependency ring', async () => {
    const n = 20_000;
    const stories = Array.from({ length: n }, (_, i) => story(`S${i}`, { dependsOn: [`S${(i + 1) % n}`] }));
    const r = await repoWith({ 'prd.json': JSON.stringify({ project: 'p', userStories: stories }) });
    refused(
      await validate(r.dir, 'prd.json'),
      /^prd\.json:1:\d+: dependency cycle: S0 -> S1 -> .* -> S19999 -> S0 \(20000 stories\)$/m,
    );
  });

  it('a 300-character target name', async () => {
    const r = await repoWith({});
    for (const target of ['x'.repeat(300), `${'x'.repeat(300)}.json`]) {
      for (const command of ['validate', 'status', 'run']) {
        refused(await runRalph([command, target], { cwd: r.dir }), /too long to be a PRD name or a path/);
      }
    }
  });
});

describe('11: "no stories found" says where and what was expected', () => {
  it('an empty userStories list', async () => {
    const r = await repoWith({ 'prd.json': '{\n  "project": "p",\n  "userStories": []\n}\n' });
    refused(
      await validate(r.dir, 'prd.json'),
      /^prd\.json:3:18: userStories: no stories found: the list is empty; expected entries like \{"id": "US-001", /m,
    );
  });

  it('a prd.md without story headings', async () => {
    const r = await repoWith({ 'prd.md': '# P\n\nIntro.\n\n## User Stories\n\n- a list, not stories\n' });
    refused(
      await validate(r.dir, 'prd.md'),
      /^prd\.md:5:1: no stories found under this heading: expected "### US-001: Title" headings/m,
    );
  });

  it('a spec directory without story files', async () => {
    const r = await repoWith({ 'specs/epic-1/notes.txt': 'x\n' });
    refused(
      await validate(r.dir, 'specs'),
      /^specs: no stories found: expected files like epic-1\/story-1\.1-login\.md/m,
    );
  });
});

describe('validate reports every problem in one pass and names the right file', () => {
  it('an error in .ralph/config.yaml is counted against the config, not the PRD', async () => {
    const r = await repoWith({
      'prd.json': prdJson([story('US-001')]),
      '.ralph/config.yaml': 'limits:\n  maxRetries: many\n',
    });
    const result = await validate(r.dir, 'prd.json');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^\.ralph\/config\.yaml:2:15: limits\.maxRetries: /m);
    expect(result.stderr).toMatch(/^ralph: \.ralph\/config\.yaml: 1 error$/m);
    expect(result.stderr).not.toMatch(/prd\.json: \d+ error/);
    expect(result.stdout).toMatch(/^prd\.json: valid, 1 story$/m);
  });

  it('a schema error, a duplicate id and an unknown dependency come together', async () => {
    const r = await repoWith({
      'prd.json': prdJson([
        story('US-001', { priority: 'urgent' }),
        story('US-001'),
        story('US-002', { dependsOn: ['US-009'] }),
      ]),
    });
    const result = await validate(r.dir, 'prd.json');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/userStories\[0\]\.priority: expected number, received string/);
    expect(result.stderr).toMatch(/duplicate story id US-001/);
    expect(result.stderr).toMatch(/US-002 depends on unknown story US-009/);
    expect(result.stderr).toMatch(/^ralph: prd\.json: 3 errors \(read 3 stories\)$/m);
  });

  it('a bad status in a prd.md and a dependency cycle come together', async () => {
    const text =
      '# P\n\n### US-001: A\n**Status:** someday\n**Depends on:** US-002\n\n### US-002: B\n**Depends on:** US-001\n';
    const r = await repoWith({ 'prd.md': text });
    const result = await validate(r.dir, 'prd.md');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^prd\.md:4:13: US-001: bad status "someday"/m);
    expect(result.stderr).toMatch(/^prd\.md:3:1: dependency cycle: US-001 -> US-002 -> US-001$/m);
  });
});

describe('spec directories in the spec skill style', () => {
  it('priority words and AC blocks', async () => {
    const spec = (n: number, priority: string) =>
      `---\nid: "1.${n}"\nstatus: pending\npriority: ${priority}\nestimation: small\ndepends_on: []\n---\n\n# Story 1.${n}\n\n## Acceptance Criteria\n\n### AC1: Works\n- **Given** a\n- **When** b\n- **Then** c\n\n### AC2: Typecheck passes\n- **Given** the change\n- **When** tsc runs\n- **Then** it exits 0\n`;
    const r = await repoWith({
      'specs/epic-1/story-1.1-a.md': spec(1, 'critical'),
      'specs/epic-1/story-1.2-b.md': spec(2, 'low'),
    });
    const result = await runRalph(['run', '--dry-run', 'specs'], { cwd: r.dir });
    expect(result.stderr).not.toMatch(/specs\/.*: /);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('AC1: Works — Given a; When b; Then c');
    expect(result.stdout).toContain(
      'AC2: Typecheck passes — Given the change; When tsc runs; Then it exits 0',
    );
  });
});

describe('the files are left alone', { timeout: 240_000 }, () => {
  it('nothing refused above writes anything', async () => {
    const r = await repoWith({ 'prd.json': prdJson([story('US 1')]) });
    await mkdir(join(r.dir, '.ralph'), { recursive: true });
    await writeFile(join(r.dir, '.ralph', 'config.yaml'), 'onFailure: keep\n');
    const before = await r.git('status', '--porcelain', '--untracked-files=all');
    for (const command of [['validate'], ['status'], ['run', '--dry-run'], ['run']]) {
      refused(await runRalph([...command, 'prd.json'], { cwd: r.dir }), /story id "US 1" cannot be used/);
    }
    expect(await r.git('status', '--porcelain', '--untracked-files=all')).toBe(before);
  });
});
