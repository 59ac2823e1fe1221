/**
 * The package as a user gets it. `npm pack` makes the tarball; a registry
 * stand-in on 127.0.0.1 serves it; the README's install lines (`npm i -g
 * ralph-cli`, `npx ralph-cli`) and quick start run as written, with the
 * install in an empty prefix and cwd and HOME outside this repository, so the
 * installed `ralph` cannot resolve anything from the repository's
 * node_modules. The agent is the real Claude Code against the scripted model.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawn as spawnPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { CLAUDE_BINARY, type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { THREE_STORY_PLAN as PLAN, prdMd, THREE_STORIES as THREE } from '../support/loop-project.js';
import { type NpmRegistry, type PackageManifest, startNpmRegistry } from '../support/npm-registry.js';
import { runProgram } from '../support/ralph-cli.js';
import { implement, storyScript } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** A second PRD, run in the terminal UI. */
const TUI_STORIES = [
  { id: 'TUI-1', title: 'Add wave' },
  { id: 'TUI-2', title: 'Add nod' },
];
const TUI_PLAN = {
  'TUI-1': [implement('TUI-1', 'Add wave', 'wave.txt', 'o/\n')],
  'TUI-2': [implement('TUI-2', 'Add nod', 'nod.txt', 'nod\n')],
};

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const execFileAsync = promisify(execFile);

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g;

/** The command lines of the first `sh` block under a README heading, comments dropped. */
async function readmeCommands(heading: string): Promise<string[]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}" section`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (!block?.[1]) throw new Error(`README.md's "${heading}" has no sh block`);
  return block[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** A command line's words; the README's lines need no quoting, and a quote here would be misread. */
function words(line: string): [string, ...string[]] {
  if (/['"`\\$|;&<>]/.test(line.replace(/^\$EDITOR\b/, ''))) throw new Error(`cannot run literally: ${line}`);
  const [command, ...args] = line.split(/\s+/);
  if (command === undefined) throw new Error('empty command line');
  return [command, ...args];
}

const exec = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  runProgram(command, args, { cwd, env });

let tmp = '';
let tarball = '';
let packedFiles: string[] = [];
let manifest: PackageManifest;
let registry: NpmRegistry;
let server: AnthropicServer;
let claude: ClaudeTestEnv;
let project: GitFixture;
let stories: ReturnType<typeof storyScript>;
/** Where `npm i -g` puts the package (npm's `prefix`), and its bin directory. */
let prefix = '';
let ralph = '';

/**
 * What a user's shell has: node, npm and git from the system, the agent CLI
 * installed on its own (a directory holding only `claude`), ralph once
 * installed. No NODE_PATH, no npm_* settings of the `npm test` running us.
 */
function userEnv(npmPrefix = prefix): NodeJS.ProcessEnv {
  return {
    ...claude.env,
    PATH: [
      join(tmp, 'agent-bin'),
      join(npmPrefix, 'bin'),
      dirname(process.execPath),
      '/usr/local/bin',
      '/usr/bin',
      '/bin',
    ].join(':'),
    HOME: join(tmp, 'home'),
    npm_config_registry: registry.url,
    npm_config_cache: join(tmp, 'npm-cache'),
    npm_config_prefix: npmPrefix,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

beforeAll(async () => {
  tmp = await makeTempDir('packed');
  prefix = join(tmp, 'prefix');
  ralph = join(prefix, 'bin', 'ralph');
  await mkdir(join(tmp, 'home'));
  await mkdir(join(tmp, 'empty'));
  await mkdir(join(tmp, 'agent-bin'));
  await symlink(CLAUDE_BINARY, join(tmp, 'agent-bin', 'claude'));
  // `npm test` built dist/ already; prepack would build it again.
  const packed = await execFileAsync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp],
    { cwd: REPO, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack said: ${packed.stdout}`);
  tarball = join(tmp, info.filename);
  packedFiles = info.files.map((f) => f.path).sort();
  const unpacked = await execFileAsync('tar', ['-xzOf', tarball, 'package/package.json']);
  manifest = JSON.parse(unpacked.stdout) as PackageManifest;
  registry = await startNpmRegistry(manifest, tarball);
  stories = storyScript({ ...PLAN, ...TUI_PLAN });
  server = await startAnthropicServer(stories.script);
  claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  project = await createGitFixture();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await registry?.close();
  await claude?.cleanup();
  await project?.cleanup();
  if (tmp) await removeTempDir(tmp);
});

describe('the packed package', () => {
  it('is the bundle alone: main.js, its chunks and the prompts; no source maps, no module tree', () => {
    const allowed =
      /^(package\.json|README\.md|LICENSE|dist\/cli\/(main\.js|package\.json|chunks\/[\w-]+\.js|chunks\/package\.json)|prompts\/[\w-]+\.md)$/;
    expect(packedFiles.filter((f) => !allowed.test(f))).toEqual([]);
    expect(packedFiles).toContain('dist/cli/main.js');
    expect(packedFiles).toContain('prompts/story.md');
    expect(
      packedFiles.filter((f) => f.startsWith('dist/cli/chunks/') && f.endsWith('.js')).length,
    ).toBeGreaterThan(10);
  });

  it("is the size the README's Install section says, within 15%", async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const said = /about ([\d.]+) MB to download/.exec(readme)?.[1];
    expect(said, 'README.md names the download size').toBeDefined();
    const bytes = (await stat(tarball)).size;
    expect(Math.abs(Number(said) * 1_000_000 - bytes) / bytes).toBeLessThan(0.15);
  });

  it('has no runtime dependencies and no install scripts; the bin is `ralph`', () => {
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'])
      expect(manifest[field] ?? {}, field).toEqual({});
    const scripts = (manifest.scripts ?? {}) as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts[hook], hook).toBeUndefined();
    expect(manifest.bin).toEqual({ ralph: 'dist/cli/main.js' });
  });

  it("installs with the README's install lines: npm i -g from the registry, npx without installing", async () => {
    const lines = await readmeCommands('## Install');
    expect(lines.some((l) => l.startsWith('npm i -g '))).toBe(true);
    expect(lines.some((l) => l.startsWith('npx '))).toBe(true);
    for (const line of lines) {
      const [command, ...args] = words(line);
      // npx as a user without the global install would run it: npx finds a global one first.
      const env = command === 'npx' ? userEnv(join(tmp, 'prefix-without-ralph')) : userEnv();
      const result = await exec(command, args, join(tmp, 'empty'), env);
      expect(result.exitCode, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (command === 'npx') expect(result.stdout).toContain('Usage: ralph');
    }
    // npx fetched the package itself, into its own cache.
    expect(await readdir(join(tmp, 'npm-cache', '_npx'))).toHaveLength(1);
    // From the registry, not from a path: the packument, then the tarball.
    expect(registry.requests()).toContain(`/${manifest.name}`);
    expect(registry.requests().some((p) => p.endsWith('.tgz'))).toBe(true);
    // The package alone: nothing else in the prefix, no node_modules of its own.
    expect(await readdir(join(prefix, 'lib', 'node_modules'))).toEqual([manifest.name]);
    expect(await readdir(join(prefix, 'lib', 'node_modules', manifest.name))).not.toContain('node_modules');
  });

  it('ralph --version and ralph doctor run from the install', async () => {
    const version = await exec(ralph, ['--version'], join(tmp, 'empty'), userEnv());
    expect(version).toMatchObject({ exitCode: 0, stdout: `${manifest.version}\n` });
    const doctor = await exec(ralph, ['doctor'], project.dir, userEnv());
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    // Without --live the login is not checked, so an installed agent is never ✓.
    expect(doctor.stdout).toMatch(/claude .*installed; login not checked/i);
    expect(doctor.stdout).toContain(join(tmp, 'agent-bin', 'claude'));
  });

  it("follows the README's quick start to a 3-story run with the real claude: exit 0, three stories pass", async () => {
    const lines = await readmeCommands('## Quick start');
    for (const line of lines) {
      const [command, ...args] = words(line);
      if (command === 'cd') continue; // the project is the fixture's repository
      if (command === '$EDITOR') {
        // The user's edit: the example becomes a three-story PRD.
        await writeFile(join(project.dir, ...(args[0] ?? '').split('/')), prdMd(THREE));
        continue;
      }
      expect(command, `a quick start step this test cannot follow: ${line}`).toBe('ralph');
      const result = await exec(ralph, args, project.dir, userEnv());
      expect(result.exitCode, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (args[0] === 'run') expect(result.stdout).toMatch(/3\/3 (stories )?passed/);
      if (args[0] === 'status') for (const s of THREE) expect(result.stdout).toMatch(new RegExp(`✓ ${s.id}`));
    }
    expect(lines.filter((l) => l.startsWith('ralph run'))).toHaveLength(1);
    for (const s of THREE) expect(stories.prompts(s.id)).toHaveLength(1);
    const branch = (await project.git('log', '--format=%s', 'ralph/example')).split('\n');
    expect(branch.filter((s) => s.startsWith('feat:')).reverse()).toEqual(
      THREE.map((s) => `feat: ${s.id} - ${s.title}`),
    );
  }, 240_000);

  it('runs a PRD in the terminal UI from the install (Ink, React, yoga): s starts, q quits', async () => {
    await mkdir(join(project.dir, '.ralph', 'prds', 'tui'));
    await writeFile(join(project.dir, '.ralph', 'prds', 'tui', 'prd.md'), prdMd(TUI_STORIES));
    const pty = spawnPty(ralph, ['run', 'tui'], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: project.dir,
      env: { ...userEnv(), TERM: 'xterm-256color' },
    });
    let output = '';
    pty.onData((d) => {
      output += d;
    });
    const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    const see = async (pattern: RegExp, from = 0) => {
      const deadline = Date.now() + 90_000;
      while (!pattern.test(output.slice(from).replace(ANSI, ''))) {
        if (Date.now() > deadline)
          throw new Error(`never showed ${pattern}:\n${output.slice(from).replace(ANSI, '').slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await see(/Ready — press s to start/);
      const from = output.length;
      pty.write('s');
      await see(/tui complete — every story passed[\s\S]*Total: 2\/2 passed/, from);
      pty.write('q');
      expect(await exit).toBe(0);
    } finally {
      try {
        pty.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
    const branch = await project.git('log', '--format=%s', 'ralph/tui');
    expect(branch).toContain('feat: TUI-1 - Add wave');
    expect(branch).toContain('feat: TUI-2 - Add nod');
  }, 120_000);

  it('loads every other command it bundles, with nothing to resolve them from', async () => {
    const commands = [
      ['list'],
      ['report', 'example'],
      ['logs', 'example'],
      ['convert', '.ralph/prds/example/prd.md', '--to', 'json', '-o', join(tmp, 'example.json')],
      ['goal', 'Write a file', '--dry-run'],
      ['ci', 'github', 'example'],
      ['merge', 'example'],
      ['clean', 'example', '--delete-branch'],
    ];
    for (const args of commands) {
      const result = await exec(ralph, args, project.dir, userEnv());
      expect(result.exitCode, `ralph ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stderr).not.toMatch(/Cannot find|ERR_MODULE_NOT_FOUND/);
    }
    expect(await readFile(join(project.dir, 'greet.txt'), 'utf8')).toBe('hello\n');
    // The workflow's jobs install this package, not the registry's other `ralph`.
    const workflow = await readFile(join(project.dir, '.github', 'workflows', 'ralph-example.yml'), 'utf8');
    expect(workflow).toContain(`RALPH_PACKAGE: ${manifest.name}@${manifest.version}\n`);
  });
});
