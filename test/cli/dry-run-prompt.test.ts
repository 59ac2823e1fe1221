/** `ralph run --dry-run` shows the prompt the next story gets, shaped by the `prompt:` switches of the config. */
import { afterEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function dryRun(config?: string) {
  repo = await createGitFixture({
    files: {
      'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]),
      ...(config === undefined ? {} : { '.ralph/config.yaml': config }),
    },
  });
  const result = await runRalph(['run', 'prd.json', '--dry-run'], { cwd: repo.dir });
  expect(result.exitCode).toBe(0);
  return result;
}

describe('ralph run --dry-run and the prompt switches', () => {
  it('by default asks for AGENTS.md patterns, not test-first or a visual check', async () => {
    const { stdout, stderr } = await dryRun();
    expect(stdout).toContain('## Your story: US-001 - Add greeting');
    expect(stdout).toContain('AGENTS.md');
    expect(stdout).not.toContain('Test first');
    expect(stdout).not.toContain('screenshot');
    expect(stderr).toContain('agentsMd on, testFirst off, visualCheck off');
  });

  it('follows the switches in .ralph/config.yaml', async () => {
    const { stdout, stderr } = await dryRun(
      'prompt:\n  agentsMd: false\n  testFirst: true\n  visualCheck: true\n',
    );
    expect(stdout).toMatch(/Test first: .*\(red\).*\(green\).*\(refactor\)/);
    expect(stdout).toMatch(/with a screenshot or in a browser/);
    expect(stdout).not.toContain('AGENTS.md');
    expect(stderr).toContain('agentsMd off, testFirst on, visualCheck on');
  });

  it('refuses a misspelt switch with the file and key, exit 2', async () => {
    repo = await createGitFixture({
      files: {
        'prd.json': prdJson([{ id: 'US-001', title: 'A' }]),
        '.ralph/config.yaml': 'prompt:\n  testfirst: true\n',
      },
    });
    const result = await runRalph(['run', 'prd.json', '--dry-run'], { cwd: repo.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\.ralph\/config\.yaml:2:\d+.*prompt\.testfirst/);
  });
});
