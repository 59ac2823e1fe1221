import { ExitCode, RalphError, UsageError } from '../../core/errors.js';
import { errorCode } from '../../state/fs-util.js';
import { findProjectRoot } from '../../state/project-root.js';
import { randomToken, tokenProblem } from '../../web/auth.js';
import { bundledPageAssets } from '../../web/page-assets.js';
import { startServing } from '../../web/server.js';
import { print, printError } from '../output.js';

export interface ServeOptions {
  port: number;
  host: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * `ralph serve`: the project's web page until Ctrl-C. Runs started anywhere
 * that share the folder show on it; stopping the server stops no run.
 */
export async function serveCommand(opts: ServeOptions): Promise<number> {
  const token = process.env.RALPH_SERVE_TOKEN ?? randomToken();
  const problem = process.env.RALPH_SERVE_TOKEN !== undefined ? tokenProblem(token) : null;
  if (problem !== null) throw new UsageError(`RALPH_SERVE_TOKEN cannot be used: ${problem}.`);
  const assets = bundledPageAssets();
  if (assets === null) {
    throw new RalphError('the page is part of the built CLI', 'no-page', ExitCode.WorkLeft, [
      'run `npm run build`, then `node dist/cli/main.js serve`',
    ]);
  }
  const root = await findProjectRoot(process.cwd());
  const serving = await startServing({ root, host: opts.host, port: opts.port, token, assets }).catch(
    (error: unknown) => {
      throw listenError(error, opts);
    },
  );
  // Listening for Ctrl-C before the URL is out: whoever reads it may stop the server at once.
  const stopped = untilStopped();
  if (!LOOPBACK.test(opts.host)) {
    printError(
      `ralph: serving on ${opts.host}, not only on this machine: anyone who reaches port ${serving.port} with the token can read the runs, answer their questions and stop them, and the page travels unencrypted. Prefer the default (127.0.0.1) with an SSH tunnel.`,
    );
  }
  const shownHost = ANY_ADDRESS.has(opts.host)
    ? '127.0.0.1'
    : opts.host.includes(':') && !opts.host.startsWith('[')
      ? `[${opts.host}]`
      : opts.host;
  print(
    [
      `ralph serve: ${root}`,
      `  http://${shownHost}:${serving.port}/?token=${token}`,
      ...(ANY_ADDRESS.has(opts.host)
        ? ["  (from another device: this machine's address instead of 127.0.0.1)"]
        : []),
      'Ctrl-C stops the server; runs go on.',
    ].join('\n'),
  );
  await stopped;
  await serving.close();
  return ExitCode.Success;
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const signal of SIGNALS) process.off(signal, stop);
      resolve();
    };
    for (const signal of SIGNALS) process.on(signal, stop);
  });
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function listenError(error: unknown, opts: ServeOptions): Error {
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new UsageError(`port ${opts.port} is in use`, [
        'pass --port <another>, or --port 0 for any free one',
      ]);
    case 'EACCES':
      return new UsageError(`port ${opts.port} needs privileges this process lacks`, [
        'pass --port above 1023',
      ]);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new UsageError(`cannot listen on ${opts.host}: no such address on this machine`);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}
