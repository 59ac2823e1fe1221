/**
 * The sandbox scenario each real agent CLI goes through (one test file per
 * agent, so that they spread over the test workers): `ralph run --sandbox`
 * under the real bubblewrap, the model a scripted server on 127.0.0.1. A
 * 3-story PRD, in its worktree and in place; its second story's agent first
 * tries to get out — a write outside the checkout, into $HOME, into
 * .git/hooks/pre-commit, and a read of ~/.ssh — and reports how each went in
 * a file it commits. Sandboxed, each fails and the story still lands; without
 * the sandbox, the same agent succeeds at each, which shows it really tries.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentLoopProject, createAgentLoopProject, type LoopAgent } from './agent-loop-project.js';
import { prdJson } from './loop-project.js';
import type { Turn } from './model-script.js';
import { implement } from './story-script.js';

// In priority order; no dependencies, so that the escaping story can also run alone.
const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add thanks' },
];
const SECRET = 'ssh-private-key-that-must-not-leave-home';

/** Outside every checkout and outside /tmp and $HOME: visible, read-only, in the sandbox. */
const outsideBase = existsSync('/var/tmp') ? '/var/tmp' : undefined;

interface Escape {
  /** A directory outside the checkout. */
  outside: string;
  home: string;
  /** The repository's hooks directory, shared by its worktrees. */
  hooks: string;
}

/**
 * The agent's attempts, each reported as a line of `escape-report.txt` in the
 * checkout (committed with the story). Literal paths: Gemini CLI refuses `$(…)`.
 */
function escapeCommand(e: Escape): string {
  const attempt = (what: string, action: string, ok: string, refused: string) =>
    `if ${action} 2>/dev/null; then echo "${what}: ${ok}"; else echo "${what}: ${refused}"; fi`;
  return [
    attempt('outside', `echo escaped > '${e.outside}/escape.txt'`, 'wrote', 'refused'),
    attempt('home', `echo escaped > '${e.home}/escape.txt'`, 'wrote', 'refused'),
    attempt('hook', `echo 'exit 0' > '${e.hooks}/pre-commit'`, 'wrote', 'refused'),
    attempt('ssh', `cp '${e.home}/.ssh/id_rsa' stolen-key.txt`, 'read', 'refused'),
  ]
    .map((line) => `${line} >> escape-report.txt`)
    .join('; ');
}

function plan(e: Escape): Record<string, Turn[][]> {
  return {
    'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
    'US-002': [
      [
        { tool: 'Bash', input: { command: escapeCommand(e), description: 'look around' } },
        ...implement('US-002', 'Add farewell', 'bye.txt', 'bye\n'),
      ],
    ],
    'US-003': [implement('US-003', 'Add thanks', 'thanks.txt', 'thanks\n')],
  };
}

let project: AgentLoopProject | undefined;
let outside: string | undefined;

/** A project whose HOME holds an ssh key, with a directory outside it all. */
async function escapingProject(agent: LoopAgent): Promise<{ project: AgentLoopProject; escape: Escape }> {
  outside = await mkdtemp(join(outsideBase ?? '/tmp', 'ralph-outside-'));
  // The turns name the repository's path, known once it exists: the script reads them when asked.
  const turns: Record<string, Turn[][]> = {};
  const created = await createAgentLoopProject(
    agent,
    { '.ralph/.gitignore': 'runs/\nworktrees/\n', '.ralph/prds/demo/prd.json': prdJson(THREE) },
    turns,
  );
  const paths = { outside, home: created.home, hooks: join(created.repo.dir, '.git', 'hooks') };
  Object.assign(turns, plan(paths));
  await mkdir(join(created.home, '.ssh'), { recursive: true });
  await writeFile(join(created.home, '.ssh', 'id_rsa'), `${SECRET}\n`);
  return { project: created, escape: paths };
}

const show = async (p: AgentLoopProject, ref: string, file: string) =>
  p.repo.git('show', `${ref}:${file}`).catch(() => null);

async function expectNoEscape(p: AgentLoopProject, e: Escape, ref: string) {
  expect(await show(p, ref, 'escape-report.txt')).toBe(
    ['outside: refused', 'home: refused', 'hook: refused', 'ssh: refused'].join('\n'),
  );
  expect(existsSync(join(e.outside, 'escape.txt'))).toBe(false);
  expect(existsSync(join(e.home, 'escape.txt'))).toBe(false);
  expect(existsSync(join(e.hooks, 'pre-commit'))).toBe(false);
  expect(await show(p, ref, 'stolen-key.txt')).toBeNull();
  expect(await p.repo.git('log', '-p', '--all')).not.toContain(SECRET);
}

async function expectAllPassed(p: AgentLoopProject, ref: string) {
  const subjects = (await p.repo.git('log', '--format=%s', ref)).split('\n');
  expect(subjects.filter((s) => s.startsWith('feat:')).reverse()).toEqual([
    'feat: US-001 - Add greeting',
    'feat: US-002 - Add farewell',
    'feat: US-003 - Add thanks',
  ]);
  const prd = JSON.parse((await show(p, ref, '.ralph/prds/demo/prd.json')) ?? '{}') as {
    userStories: { passes: boolean }[];
  };
  expect(prd.userStories.map((s) => s.passes)).toEqual([true, true, true]);
}

/** The scenario's tests for one agent. */
export function describeSandboxedAgent(agent: LoopAgent): void {
  afterEach(async () => {
    await project?.cleanup();
    if (outside) await rm(outside, { recursive: true, force: true });
    project = undefined;
    outside = undefined;
  });

  describe(`ralph run --sandbox --agent ${agent}`, () => {
    it('in its worktree: 3 stories land, every escape fails, the main checkout is untouched', async () => {
      const { project: p, escape: attempts } = await escapingProject(agent);
      project = p;
      const result = await p.run(['demo', '--headless', '--sandbox']);
      expect(result.stderr, result.stdout).toBe('');
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('in a 🔒 bwrap sandbox');
      await expectAllPassed(p, 'ralph/demo');
      await expectNoEscape(p, attempts, 'ralph/demo');
      expect(await p.repo.git('status', '--porcelain')).toBe('');
      const worktree = join(p.repo.dir, '.ralph', 'worktrees', 'demo');
      expect(await p.repo.git('-C', worktree, 'status', '--porcelain')).toBe('');
    });

    it('in place (--no-worktree): 3 stories land, every escape fails', async () => {
      const { project: p, escape: attempts } = await escapingProject(agent);
      project = p;
      const result = await p.run(['demo', '--headless', '--sandbox', '--no-worktree']);
      expect(result.stderr, result.stdout).toBe('');
      expect(result.exitCode).toBe(0);
      await expectAllPassed(p, 'HEAD');
      await expectNoEscape(p, attempts, 'HEAD');
      expect(await p.repo.git('status', '--porcelain')).toBe('');
    });

    it('without --sandbox the same agent gets out at each', async () => {
      const { project: p, escape: attempts } = await escapingProject(agent);
      project = p;
      const result = await p.run(['demo', '--headless', '--no-worktree', '--story', 'US-002']);
      expect(result.exitCode, result.stdout).toBe(0);
      expect(await show(p, 'HEAD', 'escape-report.txt')).toBe(
        ['outside: wrote', 'home: wrote', 'hook: wrote', 'ssh: read'].join('\n'),
      );
      expect(await readFile(join(attempts.outside, 'escape.txt'), 'utf8')).toBe('escaped\n');
      expect(await readFile(join(attempts.home, 'escape.txt'), 'utf8')).toBe('escaped\n');
      expect(await readFile(join(attempts.hooks, 'pre-commit'), 'utf8')).toBe('exit 0\n');
      expect(await show(p, 'HEAD', 'stolen-key.txt')).toBe(SECRET);
    });
  });
}
