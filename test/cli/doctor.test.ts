/**
 * `ralph doctor` from the built code, with a PATH the test controls: fake
 * agent binaries (shell scripts answering --version), or the real pinned ones.
 */
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/app/doctor.js';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import type { Script } from '../support/model-script.js';
import { runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const REAL_BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

interface Run {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

// `ralph doctor [--json]` through the built CLI, run with node directly since PATH is the test's.
function doctor(args: { json?: boolean }, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return runRalph(['doctor', ...(args.json ? ['--json'] : [])], { cwd, env });
}

let dir: string;
let bin: string;
let project: string;
beforeEach(async () => {
  dir = await makeTempDir('doctor');
  bin = join(dir, 'bin');
  project = join(dir, 'project');
  await mkdir(bin);
  await mkdir(project);
  // Only git from the machine: every agent and gh is absent unless a test adds it.
  await symlink('/usr/bin/git', join(bin, 'git'));
});
afterEach(async () => {
  await removeTempDir(dir);
});

const fakeBinary = async (name: string, versionLine: string, exitCode = 0) => {
  const path = join(bin, name);
  await writeFile(path, `#!/bin/sh\necho "${versionLine}"\nexit ${exitCode}\n`);
  await chmod(path, 0o755);
  return path;
};

const baseEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: bin,
  HOME: dir,
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, 'none.json'),
  ...extra,
});

const report = (run: Run): DoctorReport => JSON.parse(run.stdout) as DoctorReport;
const agent = (r: DoctorReport, provider: string) => r.agents.find((a) => a.provider === provider);

describe('ralph doctor', () => {
  it('passes when the configured agent runs: versions found, missing CLIs and gh reported', async () => {
    const codex = await fakeBinary('codex', 'codex-cli 9.8.7');
    const run = await doctor({ json: true }, project, baseEnv({ RALPH_AGENT: 'codex' }));
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const r = report(run);
    expect(r.ok).toBe(true);
    expect(r.configured).toBe('codex');
    expect(agent(r, 'codex')).toMatchObject({
      configured: true,
      path: codex,
      version: '9.8.7',
      usable: true,
    });
    expect(agent(r, 'opencode')).toMatchObject({ path: null, usable: false, configured: false });
    expect(agent(r, 'opencode')?.problem).toMatch(/not found.*npm i -g opencode-ai/);
    expect(r.agents.map((a) => a.provider)).toEqual([
      'claude',
      'codex',
      'opencode',
      'gemini',
      'amp',
      'cursor',
    ]);
    expect(r.git).toMatchObject({ name: 'git', version: expect.stringMatching(/^\d+\.\d+/) });
    expect(r.gh).toEqual({ name: 'gh', path: null, version: null });
  });

  it('fails (exit 1) when the configured agent cannot run, and says why', async () => {
    await fakeBinary('codex', 'codex-cli 9.8.7');
    const run = await doctor(
      { json: true },
      project,
      baseEnv({ RALPH_AGENT: 'codex', CODEX_HOME: join(dir, 'missing') }),
    );
    expect(run.exitCode).toBe(1);
    expect(agent(report(run), 'codex')).toMatchObject({ usable: false, version: '9.8.7' });
    expect(agent(report(run), 'codex')?.problem).toContain('CODEX_HOME');
  });

  it('reads the agent, its path and its environment from .ralph/config.yaml', async () => {
    const gemini = await fakeBinary('my-gemini', '0.61.0');
    await mkdir(join(project, '.ralph'));
    await writeFile(
      join(project, '.ralph', 'config.yaml'),
      `agent:\n  provider: gemini\n  path: ${gemini}\n  env:\n    gemini:\n      GEMINI_API_KEY: from-config\n`,
    );
    const ok = await doctor({ json: true }, project, baseEnv());
    expect(ok.exitCode).toBe(0);
    expect(agent(report(ok), 'gemini')).toMatchObject({ configured: true, binary: gemini, usable: true });

    // Without the key Gemini CLI has no headless auth: unusable, with the fix named.
    await writeFile(
      join(project, '.ralph', 'config.yaml'),
      `agent:\n  provider: gemini\n  path: ${gemini}\n`,
    );
    const refused = await doctor({}, project, baseEnv());
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(/✗ gemini .*\[configured\]/);
    expect(refused.stdout).toContain('set GEMINI_API_KEY');
    expect(refused.stdout).toContain('the configured agent (gemini) cannot run here');
  });

  it('reports an agent whose --version fails as unusable', async () => {
    await fakeBinary('claude', 'boom', 3);
    const run = await doctor({ json: true }, project, baseEnv({ RALPH_AGENT: 'claude', IS_SANDBOX: '1' }));
    expect(run.exitCode).toBe(1);
    expect(agent(report(run), 'claude')).toMatchObject({ usable: false, version: null });
    expect(agent(report(run), 'claude')?.problem).toContain('--version` failed');
  });

  it.runIf(process.getuid?.() === 0)('as root, Claude Code needs IS_SANDBOX=1', async () => {
    await fakeBinary('claude', '2.1.197 (Claude Code)');
    const refused = await doctor({ json: true }, project, baseEnv({ RALPH_AGENT: 'claude' }));
    expect(refused.exitCode).toBe(1);
    expect(agent(report(refused), 'claude')?.problem).toContain('IS_SANDBOX=1');
    const ok = await doctor({ json: true }, project, baseEnv({ RALPH_AGENT: 'claude', IS_SANDBOX: '1' }));
    expect(ok.exitCode).toBe(0);
    expect(agent(report(ok), 'claude')).toMatchObject({ usable: true, version: '2.1.197' });
  });

  it('finds the real pinned agent CLIs and their versions', async () => {
    const run = await doctor(
      {},
      project,
      baseEnv({ PATH: `${REAL_BIN}:${dirname(process.execPath)}:${bin}`, RALPH_AGENT: 'opencode' }),
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/\? codex +Codex 0\.169\.0 .* installed; login not checked/);
    expect(run.stdout).toMatch(/\? opencode +OpenCode 1\.18\.33 .*\[configured\]/);
    expect(run.stdout).toMatch(/gemini +Gemini CLI 0\.61\.0 /);
    expect(run.stdout).toMatch(/· amp +Amp: not found \(amp\)/);
    expect(run.stdout).toMatch(/· gh: not found/);
  });

  it('--agent-path checks the binary a run would be given, as `ralph run --agent-path` takes it', async () => {
    // Not on PATH: only the flag finds it.
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    const path = join(elsewhere, 'claude-2');
    await writeFile(path, '#!/bin/sh\necho "2.1.197 (Claude Code)"\n');
    await chmod(path, 0o755);
    const env = baseEnv({ IS_SANDBOX: '1' });
    const found = await runRalph(['doctor', '--json', '--agent', 'claude', '--agent-path', path], {
      cwd: project,
      env,
    });
    expect(found.stderr).toBe('');
    expect(found.exitCode).toBe(0);
    expect(agent(report(found), 'claude')).toMatchObject({
      configured: true,
      usable: true,
      binary: path,
      path,
      version: '2.1.197',
    });

    const missing = await runRalph(['doctor', '--agent-path', join(elsewhere, 'nope')], {
      cwd: project,
      env,
    });
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toContain(`Claude Code: not found (${join(elsewhere, 'nope')})  [configured]`);
    expect(missing.stdout).toMatch(/the configured agent \(claude\) cannot run here: .*--agent-path/);
  });
});

describe('ralph doctor --live', () => {
  let server: AnthropicServer | undefined;
  let claude: ClaudeTestEnv | undefined;
  afterEach(async () => {
    await server?.close();
    await claude?.cleanup();
    server = undefined;
    claude = undefined;
  });

  /** Only claude (and node) on the PATH: the one agent the live request goes through. */
  const claudeOnly = async (script: Script) => {
    server = await startAnthropicServer(script);
    claude = await createClaudeEnv(server.url);
    await symlink(claude.binaryPath, join(bin, 'claude'));
    await symlink(process.execPath, join(bin, 'node'));
    return { ...claude.env, PATH: bin, RALPH_AGENT: 'claude' };
  };

  it('answers ✓ for a key the API takes, with what the request cost', async () => {
    const env = await claudeOnly(() => ({ text: 'OK', usage: { inputTokens: 1200, outputTokens: 2 } }));
    const run = await runRalph(['doctor', '--live'], { cwd: project, env });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /✓ claude +Claude Code 2\.1\.197 .*live: logged in, API answered \(\d+\.\ds, \$[\d.]+\)/,
    );
    const json = report(await runRalph(['doctor', '--live', '--json'], { cwd: project, env }));
    expect(agent(json, 'claude')).toMatchObject({ login: 'ok', live: { ok: true } });
    expect(server?.modelCalls().length).toBeGreaterThan(0);
  });

  it('answers ✗ auth for a key the API refuses, and says how to log in; plain doctor does not claim ✓', async () => {
    const env = await claudeOnly(() => ({ error: { status: 401, message: 'invalid x-api-key' } }));
    const plain = await runRalph(['doctor'], { cwd: project, env });
    expect(plain.stdout).toMatch(/\? claude +Claude Code .*installed; login not checked/);
    expect(plain.stdout).not.toMatch(/✓ claude/);
    const run = await runRalph(['doctor', '--live'], { cwd: project, env });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/✗ claude +Claude Code .*live: failed/);
    expect(run.stdout).toMatch(/auth: /);
    expect(run.stdout).toMatch(/to fix: run `claude` and log in with \/login, or set ANTHROPIC_API_KEY/);
    expect(
      agent(report(await runRalph(['doctor', '--live', '--json'], { cwd: project, env })), 'claude'),
    ).toMatchObject({
      login: 'failed',
      live: { ok: false, problem: { cause: 'auth' } },
    });
  });
});
