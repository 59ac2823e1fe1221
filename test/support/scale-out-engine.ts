/**
 * Plays the engine a PRD's jobs run on (GitHub Actions, a Kubernetes Job):
 * a bare repository as `origin`, and every job in a fresh clone of its own,
 * running the built `ralph` with the real Claude Code against the scripted
 * server: `plan`, one `run --story --worker` per planned story at once, then
 * integrators started together.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LoopProject } from './loop-project.js';
import { processesIn } from './processes.js';
import { type CliResult, runRalph } from './ralph-cli.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

const execFileAsync = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, { cwd, env: GIT_ENV });
  return stdout.trim();
}

export interface Plan {
  ids: string[];
  verified: string[];
  parked: string[];
  remaining: number;
  complete: boolean;
}

export interface Integrated {
  landed: string[];
  rejected: string[];
  remaining: number;
  next: string;
}

export interface WorkerJob {
  storyId: string;
  /** The job's process, leader of its own process group. */
  pid: number;
  dir: string;
  done: Promise<CliResult>;
}

export interface Engine {
  /** The bare repository every job pushes to and fetches from. */
  origin: string;
  /** Where origin and every job's clone live. */
  root: string;
  plan(parallel: number): Promise<Plan>;
  startWorker(storyId: string): Promise<WorkerJob>;
  /** kill -9 of the job's process group, then of whatever else still runs in its clone, as a dying runner does. */
  killWorker(job: WorkerJob): Promise<void>;
  integrate(): Promise<{ result: CliResult; outcome: Integrated }>;
  /** `git ls-remote` of origin: ref -> sha. */
  remoteRefs(pattern: string): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** A bare `origin` made from the project's repository (its main branch only). */
export async function createEngine(
  project: LoopProject,
  paths: { ralph?: string; agent?: string } = {},
): Promise<Engine> {
  const root = await makeTempDir('engine');
  const origin = join(root, 'origin.git');
  await git(root, 'clone', '--quiet', '--bare', '--branch', 'main', project.repo.dir, origin);
  let jobs = 0;
  const env = { ...project.claude.env, RALPH_AGENT_PATH: paths.agent ?? project.claude.binaryPath };
  const clone = async (): Promise<string> => {
    const dir = join(root, `job-${++jobs}`);
    await git(root, 'clone', '--quiet', origin, dir);
    await git(dir, 'config', 'user.name', 'Ralph Job');
    await git(dir, 'config', 'user.email', 'ralph-job@example.com');
    await git(dir, 'config', 'commit.gpgsign', 'false');
    return dir;
  };
  const ralph = (
    dir: string,
    args: string[],
    options: { detached?: boolean; onSpawn?: (pid: number) => void } = {},
  ) =>
    runRalph(args, {
      cwd: dir,
      env,
      timeoutMs: 240_000,
      ...(paths.ralph ? { bin: paths.ralph } : {}),
      ...options,
    });
  return {
    origin,
    root,
    plan: async (parallel) => {
      const result = await ralph(await clone(), ['plan', 'demo', '--json', '--parallel', String(parallel)]);
      if (result.exitCode !== 0) throw new Error(`ralph plan failed: ${result.stderr}`);
      return JSON.parse(result.stdout) as Plan;
    },
    startWorker: async (storyId) => {
      const dir = await clone();
      let pid = 0;
      const done = ralph(dir, ['run', 'demo', '--story', storyId, '--worker', '--headless'], {
        detached: true,
        onSpawn: (p) => {
          pid = p;
        },
      });
      return { storyId, pid, dir, done };
    },
    killWorker: async (job) => {
      process.kill(-job.pid, 'SIGKILL');
      await job.done;
      for (const p of processesIn(job.dir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    },
    integrate: async () => {
      const result = await ralph(await clone(), ['integrate', 'demo', '--json']);
      const last = result.stdout.trim().split('\n').at(-1) ?? '{}';
      return { result, outcome: JSON.parse(last) as Integrated };
    },
    remoteRefs: async (pattern) =>
      (await git(root, 'ls-remote', origin, pattern))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[1] ?? ''),
    cleanup: () => removeTempDir(root),
  };
}
