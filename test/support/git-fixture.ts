/** A throwaway git repository with a local identity and one initial commit. */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';
import { makeTempDir, removeTempDir } from './temp-dir.js';

const execFileAsync = promisify(execFile);

export interface GitFixture {
  dir: string;
  /** Runs git in the repo and returns trimmed stdout; rejects on a non-zero exit. */
  git(...args: string[]): Promise<string>;
  head(): Promise<string>;
  /** Commit subjects, newest first. */
  subjects(): Promise<string[]>;
  write(relativePath: string, content: string): Promise<void>;
  cleanup(): Promise<void>;
}

export interface GitFixtureOptions {
  /** Files of the initial commit; default a README.md. */
  files?: Record<string, string>;
  branch?: string;
}

// Keep the machine's git config out of the fixture.
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

export async function createGitFixture(options: GitFixtureOptions = {}): Promise<GitFixture> {
  const dir = await makeTempDir('repo');
  const git = async (...args: string[]) => {
    const { stdout } = await execFileAsync('git', args, { cwd: dir, env: GIT_ENV });
    return stdout.trim();
  };
  const write = async (relativePath: string, content: string) => {
    const path = join(dir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  };
  try {
    await git('init', '-q', '-b', options.branch ?? 'main');
    await git('config', 'user.name', 'Ralph Test');
    await git('config', 'user.email', 'ralph-test@example.com');
    await git('config', 'commit.gpgsign', 'false');
    for (const [path, content] of Object.entries(options.files ?? { 'README.md': '# fixture\n' })) {
      await write(path, content);
    }
    await git('add', '-A');
    await git('commit', '-q', '-m', 'chore: initial commit');
  } catch (error) {
    await removeTempDir(dir);
    throw error;
  }
  return {
    dir,
    git,
    head: () => git('rev-parse', 'HEAD'),
    subjects: async () => (await git('log', '--format=%s')).split('\n').filter((s) => s !== ''),
    write,
    cleanup: () => removeTempDir(dir),
  };
}

/**
 * For a test file whose tests each want a fresh repository: returns a
 * function that creates one (with a README.md beside the given files) and
 * removes it after the test.
 */
export function gitFixturePerTest(): (files?: Record<string, string>) => Promise<GitFixture> {
  let current: GitFixture | undefined;
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return async (files = {}) => {
    current = await createGitFixture({ files: { 'README.md': '# t\n', ...files } });
    return current;
  };
}
