import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git } from '../../src/git/git.js';

/** A real repository in a temporary folder, for tests of code that runs git. */
export interface TempRepo {
  dir: string;
  git(...args: string[]): Promise<string>;
  write(file: string, content: string): Promise<void>;
  /** Writes the files and commits them; returns the new sha. */
  commit(message: string, files?: Record<string, string>): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeTempRepo(): Promise<TempRepo> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'ralph-git-')));
  const run = (...args: string[]) => git(args, { cwd: dir });
  await run('init', '--quiet', '--initial-branch=main');
  // Local settings shield the tests from whatever the machine's global config says.
  await run('config', 'user.name', 'Test');
  await run('config', 'user.email', 'test@example.com');
  await run('config', 'commit.gpgsign', 'false');
  await run('config', 'core.hooksPath', '.git/hooks');
  const write = async (file: string, content: string) => {
    const full = path.join(dir, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  };
  return {
    dir,
    git: run,
    write,
    async commit(message, files = {}) {
      for (const [file, content] of Object.entries(files)) await write(file, content);
      await run('add', '--all');
      await run('commit', '--quiet', '--allow-empty', '-m', message);
      return run('rev-parse', 'HEAD');
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
