/** `ralph validate` story-quality warnings and `--strict`, and the PRD writer's checks that need no agent. */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const story = (id: string, title: string, criteria: string[]) =>
  [
    `### ${id}: ${title}`,
    '**Status:** todo',
    '',
    '**Acceptance Criteria:**',
    ...criteria.map((c) => `- [ ] ${c}`),
    '',
  ].join('\n');
const prd = (...stories: string[]) => `# Shop\n\n## User Stories\n\n${stories.join('\n')}`;

const GOOD = story('US-001', 'Orders table', ['Migration creates the orders table', 'Typecheck passes']);
const VAGUE = story('US-002', 'Checkout page', ['Checkout works well', 'Typecheck passes']);

// Keep RALPH_* settings of the machine out of the commands under test.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RALPH_')));

describe('ralph validate: story quality', () => {
  it('prints quality advice as warnings on stdout and still exits 0', async () => {
    repo = await createGitFixture({ files: { 'prd.md': prd(GOOD, VAGUE) } });
    const result = await runRalph(['validate', 'prd.md'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /prd\.md:\d+:1: warning: US-002: criterion "Checkout works well" is not checkable/,
    );
    expect(result.stdout).toMatch(
      /warning: US-002: looks like UI work but no criterion verifies it in a browser/,
    );
    expect(result.stdout).not.toMatch(/US-001/);
    expect(result.stdout).toMatch(/prd\.md: valid, 2 stories, 2 warnings/);
  });

  it('--strict turns the warnings into errors: stderr, exit 2', async () => {
    repo = await createGitFixture({ files: { 'prd.md': prd(GOOD, VAGUE) } });
    const result = await runRalph(['validate', 'prd.md', '--strict'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/prd\.md:\d+:1: US-002: criterion "Checkout works well" is not checkable/);
    expect(result.stderr).toMatch(/2 errors/);
  });

  it('--strict passes a PRD with nothing to say about it', async () => {
    repo = await createGitFixture({ files: { 'prd.md': prd(GOOD) } });
    const result = await runRalph(['validate', 'prd.md', '--strict'], { cwd: repo.dir, env });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('reports an id that names a different story than in the committed file', async () => {
    repo = await createGitFixture({ files: { 'prd.md': prd(GOOD) } });
    await repo.write('prd.md', prd(story('US-001', 'Refund flow', ['Refund is recorded', 'Tests pass'])));
    const result = await runRalph(['validate', 'prd.md'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/warning: US-001: id reused: US-001 was "Orders table"/);
  });
});

describe('ralph new / edit: refused before any agent starts', () => {
  it('rejects an invalid name', async () => {
    repo = await createGitFixture();
    const result = await runRalph(['new', '../escape', '--from', 'x'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/Invalid PRD name/);
  });

  it('refuses to overwrite an existing PRD, leaving it untouched', async () => {
    const text = prd(GOOD);
    repo = await createGitFixture({ files: { '.ralph/prds/shop/prd.md': text } });
    const result = await runRalph(['new', 'shop', '--from', 'anything'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/a PRD named "shop" already exists/);
    expect(result.stderr).toMatch(/ralph edit shop/);
    expect(await readFile(join(repo.dir, '.ralph/prds/shop/prd.md'), 'utf8')).toBe(text);
  });

  it('needs a terminal for the interactive session, and says how to go without one', async () => {
    repo = await createGitFixture();
    const result = await runRalph(['new', 'shop', 'a', 'shop'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/needs a terminal/);
    expect(result.stderr).toMatch(/--from/);
    expect(await stat(join(repo.dir, '.ralph/prds/shop')).catch(() => null)).toBeNull();
  });

  it('--from naming a file that does not exist is an error, not a description', async () => {
    repo = await createGitFixture();
    const result = await runRalph(['new', 'shop', '--from', 'feature.md'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--from feature\.md: no such file/);
  });

  it('edit refuses a prd.json and says how to convert it', async () => {
    repo = await createGitFixture({
      files: {
        '.ralph/prds/shop/prd.json': JSON.stringify({
          project: 'Shop',
          userStories: [{ id: 'US-001', title: 'a', acceptanceCriteria: [], priority: 1, passes: false }],
        }),
      },
    });
    const result = await runRalph(['edit', 'shop', '--from', 'x'], { cwd: repo.dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/works on prd\.md files/);
    expect(result.stderr).toMatch(/ralph convert/);
  });

  it('reports a missing agent binary with exit 4 and writes nothing', async () => {
    repo = await createGitFixture();
    const result = await runRalph(['new', 'shop', '--from', 'a shop', '--agent-path', './no-such-agent'], {
      cwd: repo.dir,
      env,
    });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/not found: \.\/no-such-agent/);
    expect(await stat(join(repo.dir, '.ralph/prds/shop')).catch(() => null)).toBeNull();
  });
});
