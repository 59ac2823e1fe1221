/** `ralph serve` as a user starts it: the built CLI in a project folder, until the test stops it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { RALPH_BIN } from './ralph-cli.js';

export interface ServeProcess {
  /** The URL it printed, token included. */
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  token: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Ctrl-C, and its exit code. */
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The built CLI to run (default this checkout's `dist/cli/main.js`). */
  bin?: string;
}

export async function startServe(cwd: string, options: ServeOptions = {}): Promise<ServeProcess> {
  const { args = ['--port', '0'], env = process.env, bin = RALPH_BIN } = options;
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ralph serve printed no URL: ${out}${err}`)), 30_000);
    const look = () => {
      const found = /http:\/\/\S+\/\?token=\S+/.exec(out)?.[0];
      if (found === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', look);
      resolve(found);
    };
    child.stdout?.on('data', look);
    child.on('close', (code) => reject(new Error(`ralph serve exited ${code}: ${out}${err}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}
