/**
 * A recording stand-in for the GitHub CLI: an executable named `gh` in a
 * temporary folder, to put first on PATH. Every call's arguments and working
 * directory are appended to a log; it answers with the configured output and
 * exit code.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface FakeGhBehaviour {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

export interface FakeGhCall {
  args: string[];
  cwd: string;
}

export interface FakeGh {
  /** The folder holding `gh`. */
  binDir: string;
  /** `base` (default this process's environment) with the fake first on PATH. */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  calls(): Promise<FakeGhCall[]>;
  cleanup(): Promise<void>;
}

export const FAKE_PR_URL = 'https://github.com/example/demo/pull/42';

export async function createFakeGh(behaviour: FakeGhBehaviour = {}): Promise<FakeGh> {
  const binDir = await makeTempDir('fake-gh');
  const log = join(binDir, 'calls.jsonl');
  const answer = {
    stdout: behaviour.stdout ?? `${FAKE_PR_URL}\n`,
    stderr: behaviour.stderr ?? '',
    exitCode: behaviour.exitCode ?? 0,
  };
  const script = `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }) + '\\n');
const answer = ${JSON.stringify(answer)};
process.stdout.write(answer.stdout);
process.stderr.write(answer.stderr);
process.exitCode = answer.exitCode;
`;
  const gh = join(binDir, 'gh');
  await writeFile(gh, script);
  await chmod(gh, 0o755);
  return {
    binDir,
    env: (base = process.env) => ({ ...base, PATH: `${binDir}${delimiter}${base.PATH ?? ''}` }),
    calls: async () => {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as FakeGhCall);
    },
    cleanup: () => removeTempDir(binDir),
  };
}
