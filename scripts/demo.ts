/**
 * `npm run demo`: a throwaway example project with a 3-story PRD, run by
 * `ralph run` with the real Claude Code CLI. Only the model is scripted (a
 * server on 127.0.0.1 answers as a model would); every tool call, file write,
 * test run and git commit really happens. The project and Claude Code's
 * config live in temporary directories that the demo removes when it ends
 * (Ctrl-C included), after showing what the run did; `npm run demo -- --keep`
 * keeps the project to look around in, and says where it is.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnthropicServer } from '../test/support/anthropic-server.js';
import { implement, storyScript } from '../test/support/story-script.js';

/** The clone: the nearest directory up from this file with a package.json (compiled, this file is in build/demo/scripts/). */
function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no package.json above the demo script');
    dir = up;
  }
  return dir;
}

const repoRoot = findRepoRoot();
const ralphBin = join(repoRoot, 'dist', 'cli', 'main.js');
const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');

const PRD = `# Greeter

## Overview
A tiny library and command line that greets people.

## User Stories

### US-001: Greet by name
**Status:** todo
**Priority:** 1
**Description:** As a user I want greet(name) to return "Hello, <name>!".

**Acceptance Criteria:**
- [ ] src/greet.mjs exports greet(name)
- [ ] A test covers it and \`node --test\` passes

### US-002: Say goodbye
**Status:** todo
**Priority:** 2
**Description:** As a user I want farewell(name) to return "Goodbye, <name>.".
**Depends on:** US-001

**Acceptance Criteria:**
- [ ] src/farewell.mjs exports farewell(name)
- [ ] A test covers it and \`node --test\` passes

### US-003: Command line
**Status:** todo
**Priority:** 3
**Description:** As a user I want \`node bin/hello.mjs Ada\` to print the greeting.
**Depends on:** US-001

**Acceptance Criteria:**
- [ ] bin/hello.mjs prints greet(process.argv[2])
- [ ] A test covers it and \`node --test\` passes
`;

/** What the scripted model does for each story: write the code and its test, run the tests, commit, say DONE. */
function story(id: string, title: string, files: Record<string, string>) {
  const [first, ...rest] = Object.entries(files);
  if (!first) throw new Error('a story needs files');
  const writes = rest.map(([path, content]) => ({ tool: 'Write', input: { file_path: path, content } }));
  const [write, commit, done] = implement(id, title, first[0], first[1], ' All tests pass.');
  if (!write || !commit || !done) throw new Error('unexpected script shape');
  return [
    write,
    ...writes,
    { tool: 'Bash', input: { command: 'node --test test/', description: 'run the tests' } },
    commit,
    {
      text: `${'text' in done ? done.text : ''}\n<ralph>LEARN: tests live in test/*.test.mjs and run with node --test</ralph>`,
    },
  ];
}

const plan = {
  'US-001': [
    story('US-001', 'Greet by name', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the file written is itself JavaScript with a template
      'src/greet.mjs': 'export const greet = (name) => `Hello, ${name}!`;\n',
      'test/greet.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { greet } from '../src/greet.mjs';\n\ntest('greets by name', () => assert.equal(greet('Ada'), 'Hello, Ada!'));\n",
    }),
  ],
  'US-002': [
    story('US-002', 'Say goodbye', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the file written is itself JavaScript with a template
      'src/farewell.mjs': 'export const farewell = (name) => `Goodbye, ${name}.`;\n',
      'test/farewell.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { farewell } from '../src/farewell.mjs';\n\ntest('says goodbye', () => assert.equal(farewell('Ada'), 'Goodbye, Ada.'));\n",
    }),
  ],
  'US-003': [
    story('US-003', 'Command line', {
      'bin/hello.mjs':
        "import { greet } from '../src/greet.mjs';\nconsole.log(greet(process.argv[2] ?? 'world'));\n",
      'test/hello.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { execFileSync } from 'node:child_process';\n\ntest('prints the greeting', () => {\n  const out = execFileSync(process.execPath, ['bin/hello.mjs', 'Ada'], { encoding: 'utf8' });\n  assert.equal(out.trim(), 'Hello, Ada!');\n});\n",
    }),
  ],
};

export interface DemoOptions {
  /** Keep the project (not Claude Code's config) after the run, to look around in. */
  keep?: boolean;
  /** Where the temporary directories go (default the OS temp dir). */
  tmpRoot?: string;
  /** Where the demo's and ralph's output goes (default this process's stdout and stderr). */
  out?: (text: string) => void;
}

export interface DemoResult {
  /** ralph run's exit code. */
  code: number;
  /** The demo project, removed unless `keep`. */
  project: string;
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const out = options.out ?? ((text: string) => process.stdout.write(text));
  const say = (line = '') => out(`${line}\n`);
  const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(cmd, args, {
        cwd,
        env,
        stdio: ['ignore', options.out ? 'pipe' : 'inherit', options.out ? 'pipe' : 'inherit'],
      });
      child.stdout?.on('data', (d: Buffer) => out(d.toString('utf8')));
      child.stderr?.on('data', (d: Buffer) => out(d.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? 1));
    });

  const root = options.tmpRoot ?? tmpdir();
  const project = await mkdtemp(join(root, 'ralph-demo-'));
  const claudeHome = await mkdtemp(join(root, 'ralph-demo-claude-'));
  // Ctrl-C reaches ralph too, which stops the loop and exits: wait for that, then clean up.
  const onInterrupt = () =>
    say('\ninterrupted: waiting for ralph to stop, then removing the demo directories');
  process.on('SIGINT', onInterrupt);
  try {
    await write(project, 'README.md', '# Greeter\n');
    await write(
      project,
      'package.json',
      `${JSON.stringify({ name: 'greeter', type: 'module', private: true }, null, 2)}\n`,
    );
    await write(project, 'test/.keep', '');
    await write(project, '.ralph/prds/demo/prd.md', PRD);
    await write(project, '.ralph/config.yaml', 'checks:\n  - node --test test/\n');
    const git = (...args: string[]) => run('git', args, project);
    await git('init', '-q', '-b', 'main');
    await git('config', 'user.name', 'Ralph Demo');
    await git('config', 'user.email', 'demo@example.invalid');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'chore: start the greeter');

    const stories = storyScript(plan);
    const server = await startAnthropicServer(stories.script);
    say(`demo project: ${project}`);
    say(`scripted model: ${server.url} (Claude Code talks to it instead of the Anthropic API)\n`);
    let code: number;
    try {
      code = await run(process.execPath, [ralphBin, 'run', 'demo', '--headless', '--no-worktree'], project, {
        ...process.env,
        RALPH_AGENT_PATH: claudeBin,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'demo-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CONFIG_DIR: claudeHome,
        DISABLE_AUTOUPDATER: '1',
        // The demo runs Claude Code unattended in a throwaway directory; as root it insists on this.
        IS_SANDBOX: '1',
      });
    } finally {
      await server.close();
    }
    say(`\nralph exited ${code}. What it did:\n`);
    say('$ ralph status demo');
    await run(process.execPath, [ralphBin, 'status', 'demo'], project);
    say('\n$ git log --oneline');
    await git('--no-pager', 'log', '--oneline');
    if (options.keep) {
      say(`\nKept the demo project at ${project} (--keep), to look around in:`);
      say(`  git -C ${project} log --stat              the story commits and ralph's own records`);
      say(`  cat ${project}/.ralph/prds/demo/prd.md      statuses written back, criteria ticked`);
      say(`  cat ${project}/.ralph/prds/demo/progress.md progress entries and Codebase Patterns`);
      say(
        `  ls ${project}/.ralph/runs/demo/             state.json, events.jsonl, ralph.log, iterations/*.jsonl`,
      );
      say(`  node ${ralphBin} report demo   (run inside ${project})`);
      say(`Remove it with: rm -rf ${project}`);
    } else {
      await rm(project, { recursive: true, force: true });
      say(`\nRemoved the demo project ${project}; \`npm run demo -- --keep\` keeps it to look around in.`);
    }
    return { code, project };
  } finally {
    process.off('SIGINT', onInterrupt);
    await rm(claudeHome, { recursive: true, force: true });
    if (!options.keep) await rm(project, { recursive: true, force: true });
  }
}

async function write(root: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  runDemo({ keep: process.argv.includes('--keep') }).then(
    ({ code }) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
