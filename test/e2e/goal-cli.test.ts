/**
 * Goal files on the command line: `ralph goal --file`, `ralph run SPRINT.yaml`,
 * dry runs and validation errors.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { scriptedTurns } from '../support/model-script.js';
import { runRalph } from '../support/ralph-cli.js';

const SPRINT = [
  'workflow: ralph',
  'goal: |',
  '  Write a haiku about loops to haiku.txt.',
  'success-criteria:',
  '  - haiku.txt has three lines',
  'ralph:',
  '  idle-threshold: 2',
  '',
].join('\n');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function repoWith(files: Record<string, string>): Promise<GitFixture> {
  const repo = await createGitFixture({ files: { 'README.md': '# demo\n', ...files } });
  cleanups.push(repo.cleanup);
  return repo;
}

describe('goal files', () => {
  it('prints the first prompt of a goal file on --dry-run and writes nothing', async () => {
    const repo = await repoWith({ 'sprints/haiku/SPRINT.yaml': SPRINT });
    const result = await runRalph(['goal', '--file', 'sprints/haiku/SPRINT.yaml', '--dry-run'], {
      cwd: repo.dir,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Write a haiku about loops to haiku.txt.');
    expect(result.stdout).toContain('- haiku.txt has three lines');
    expect(result.stdout).toContain('## Iteration 1: planning');
    expect(result.stdout).toContain('or the goal file (sprints/haiku/SPRINT.yaml)');
    expect(existsSync(join(repo.dir, '.ralph'))).toBe(false);
  });

  it('rejects an invalid goal file with exit 2 and file:line:column', async () => {
    const repo = await repoWith({ 'SPRINT.yaml': `${SPRINT}  min-iteration: 3\n` });
    const result = await runRalph(['run', 'SPRINT.yaml'], { cwd: repo.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'SPRINT.yaml:8:3: ralph.min-iteration: unknown key "min-iteration" (did you mean "min-iterations"?)',
    );
  });

  it('refuses a goal given twice, or not at all', async () => {
    const repo = await repoWith({ 'SPRINT.yaml': SPRINT });
    expect((await runRalph(['goal', 'text', '--file', 'SPRINT.yaml'], { cwd: repo.dir })).exitCode).toBe(2);
    const none = await runRalph(['goal'], { cwd: repo.dir });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/no goal given/);
  });

  it('runs a goal file with `ralph run`, named after its folder, and commits the new goal file first', async () => {
    const repo = await repoWith({});
    await repo.write('sprints/haiku/SPRINT.yaml', SPRINT);
    const server = await startAnthropicServer(
      scriptedTurns([
        {
          tool: 'Bash',
          input: {
            command:
              "printf 'a\\nb\\nc\\n' > haiku.txt && git add haiku.txt && git commit -q -m 'feat: haiku'",
            description: 'write',
          },
        },
        {
          text: '```json\n{"status":"goal-complete","summary":"Wrote it","goalCompleteSummary":"haiku.txt has the haiku."}\n```',
        },
      ]),
    );
    cleanups.push(server.close);
    const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
    cleanups.push(claude.cleanup);
    const result = await runRalph(['run', 'sprints/haiku/SPRINT.yaml', '--headless', '--no-worktree'], {
      cwd: repo.dir,
      env: { ...claude.env, RALPH_AGENT_PATH: claude.binaryPath },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/starting goal haiku/);
    expect(result.stdout).toContain('haiku.txt has the haiku.');
    expect(await repo.subjects()).toEqual([
      'feat: haiku',
      'chore(ralph): track the goal files',
      'chore: initial commit',
    ]);
    expect(await repo.git('ls-files', 'sprints/haiku/SPRINT.yaml')).toBe('sprints/haiku/SPRINT.yaml');
    const progress = await readFile(join(repo.dir, '.ralph', 'runs', 'haiku', 'PROGRESS.yaml'), 'utf8');
    expect(progress).toContain('status: goal-complete');
    expect(progress).toContain('goal-file: sprints/haiku/SPRINT.yaml');
    expect(progress).toContain('idle-threshold: 2');
  });
});
