/**
 * The README's Quick start, walked as written from a fresh repository: the
 * commands are read from the README's own Quick start block and run one by one
 * in a shell, `ralph` being the built CLI, `$EDITOR` a script that writes a
 * PRD, the agent the real Claude Code against the scripted model. The flow
 * must end merged with nothing left over in the main checkout. Then the same
 * project as a user goes on: commits everything, adds a story in the main
 * checkout, runs again, merges again.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { prdMd, type StoryDef } from '../support/loop-project.js';
import { type CliResult, RALPH_BIN, runProgram } from '../support/ralph-cli.js';
import { implement, storyScript } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const README = new URL('../../README.md', import.meta.url);

/** The commands of the README's `## Quick start` sh block, comments dropped. */
async function quickStartCommands(): Promise<string[]> {
  const text = await readFile(README, 'utf8');
  const section = text.split(/^## Quick start\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const STORIES: StoryDef[] = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell', dependsOn: ['US-001'] },
];
const ADDED: StoryDef = { id: 'US-003', title: 'Add shout' };

let parent = '';
let server: AnthropicServer | undefined;
let claude: ClaudeTestEnv | undefined;
afterEach(async () => {
  await server?.close();
  await claude?.cleanup();
  if (parent) await removeTempDir(parent);
  parent = '';
  server = undefined;
  claude = undefined;
});

async function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runProgram('sh', ['-c', line], { cwd, env, timeoutMs: 180_000 });
}

describe('the README Quick start', () => {
  it('walks as written from a fresh repository and ends merged; a story added afterwards lands in the next run', async () => {
    const commands = await quickStartCommands();
    expect(commands[0]).toBe('cd your-project');
    expect(commands.some((c) => c.startsWith('ralph run '))).toBe(true);
    expect(commands.some((c) => c.startsWith('ralph merge '))).toBe(true);

    server = await startAnthropicServer(
      storyScript({
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      }).script,
    );
    claude = await createClaudeEnv(server.url, { maxRetries: 0 });
    parent = await makeTempDir('quick-start');
    const bin = join(parent, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'ralph'), `#!/bin/sh\nexec "${process.execPath}" "${RALPH_BIN}" "$@"\n`);
    const prd = join(parent, 'prd.md');
    await writeFile(prd, prdMd(STORIES));
    // The user's editor: writes their PRD over the example.
    await writeFile(join(bin, 'editor'), `#!/bin/sh\ncat "${prd}" > "$1"\n`);
    await chmod(join(bin, 'ralph'), 0o755);
    await chmod(join(bin, 'editor'), 0o755);

    // A project as a user has one: a tracked .gitignore, a first commit.
    const project = join(parent, 'your-project');
    await mkdir(project);
    const env: NodeJS.ProcessEnv = {
      ...claude.env,
      PATH: `${bin}:${claude.env.PATH}`,
      EDITOR: join(bin, 'editor'),
      RALPH_AGENT_PATH: claude.binaryPath,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    };
    const setup = await sh(
      'git init -q -b main && printf "node_modules/\\n" > .gitignore && echo "# app" > README.md && git add -A && git commit -q -m "first commit"',
      project,
      env,
    );
    expect(setup.exitCode, setup.stderr).toBe(0);

    let cwd = parent;
    const outputs: string[] = [];
    for (const line of commands) {
      const cd = /^cd\s+(\S+)$/.exec(line);
      if (cd?.[1]) {
        cwd = join(cwd, cd[1]);
        continue;
      }
      const result = await sh(line, cwd, env);
      outputs.push(`$ ${line}\n${result.stdout}${result.stderr}`);
      expect(result.exitCode, outputs.join('\n')).toBe(0);
    }
    const git = (args: string) => sh(`git ${args}`, project, env).then((r) => r.stdout.trim());

    // Merged: both stories' work on main, a merge commit, and nothing left uncommitted or untracked.
    expect(await readFile(join(project, 'greet.txt'), 'utf8')).toBe('hello\n');
    expect(await readFile(join(project, 'bye.txt'), 'utf8')).toBe('bye\n');
    expect((await git('rev-list --parents -n 1 HEAD')).split(' ')).toHaveLength(3);
    expect(await git('status --porcelain'), outputs.join('\n')).toBe('');
    expect(await readFile(join(project, '.ralph/prds/example/prd.md'), 'utf8')).toMatch(
      /### US-002: Add farewell\n\*\*Status:\*\* done/,
    );

    // The user goes on in the main checkout: adds a story to the PRD, runs again, merges again.
    const edited = `${await readFile(join(project, '.ralph/prds/example/prd.md'), 'utf8')}\n${prdMd([ADDED])
      .split('## User Stories\n\n')[1]
      ?.replace('**Priority:** 1', '**Priority:** 3')}`;
    await writeFile(join(project, '.ralph/prds/example/prd.md'), edited);
    const validated = await sh('ralph validate example', project, env);
    expect(validated.stdout).toContain('3 stories');
    const again = await sh('ralph run example', project, env);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('US-003');
    const merged = await sh('ralph merge example', project, env);
    expect(merged.exitCode, merged.stdout + merged.stderr).toBe(0);
    expect(await readFile(join(project, 'shout.txt'), 'utf8')).toBe('HEY\n');
    const final = await readFile(join(project, '.ralph/prds/example/prd.md'), 'utf8');
    // Every story done, the first two kept as the first run left them.
    expect(final.match(/\*\*Status:\*\* done/g)).toHaveLength(3);
    expect(await git('status --porcelain')).toBe('');
  }, 600_000);
});
