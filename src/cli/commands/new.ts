import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { resolveAgent, setUpAgent } from '../../agents/agent-setup.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { assertNoPrd, writeNewPrd } from '../../prd-writer/new-prd.js';
import { describeEvent, describeOutcome } from '../../prd-writer/report.js';
import { watchStrayChanges } from '../../prd-writer/stray-changes.js';
import { displayPath, type WriterOutcome, type WriterRun } from '../../prd-writer/writer-run.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { prdPaths, validatePrdName } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print, printError } from '../output.js';
import type { PrdWriterOptions } from './prd-writer-options.js';

export type { PrdWriterOptions };

/** `ralph new [name] [context...]`: a new PRD written with the agent, checked by ralph. */
export async function newCommand(
  name: string | undefined,
  context: readonly string[],
  opts: PrdWriterOptions,
): Promise<number> {
  const { root, prdName } = await checkNewPrd(name);
  const request = await requestText(context, opts.from);
  const outcome = await writeNewPrdWithAgent(root, prdName, request, opts);
  return report(outcome.outcome, prdName, false, outcome.interrupted);
}

/** What `ralph new` checks before any agent starts: a valid name, not taken. Throws a UsageError. */
export async function checkNewPrd(name: string | undefined): Promise<{ root: string; prdName: string }> {
  const prdName = validatePrdName(name ?? 'main');
  const root = await findProjectRoot(process.cwd());
  await assertNoPrd(root, prdName);
  return { root, prdName };
}

export function writeNewPrdWithAgent(
  root: string,
  prdName: string,
  request: string,
  opts: PrdWriterOptions,
): Promise<{ outcome: WriterOutcome; interrupted: boolean }> {
  const shown = displayPath(root, prdPaths(root, prdName).md);
  return withWriter(root, request, opts, shown, (run) => writeNewPrd(prdName, run));
}

/** The description: the context words, then the text `--from` names. */
export async function requestText(context: readonly string[], from: string | undefined): Promise<string> {
  const parts = [context.join(' ').trim()];
  if (from !== undefined) parts.push(await readFrom(from));
  const text = parts.filter((p) => p !== '').join('\n\n');
  if (from !== undefined && text === '') throw new UsageError('--from gave an empty description');
  return text;
}

async function readFrom(from: string): Promise<string> {
  if (from === '-') return (await readStdin()).trim();
  const info = await stat(resolve(from)).catch(() => null);
  if (info?.isFile()) return (await readFile(resolve(from), 'utf8')).trim();
  // A lone word ending like a file name is a file the user meant, not a description.
  if (/^\S+\.(md|markdown|txt)$/i.test(from)) throw new UsageError(`--from ${from}: no such file`);
  return from.trim();
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sets up the agent for the mode (an interactive session needs a terminal;
 * an unattended run needs the adapter's preflight), prints progress, and
 * stops an unattended agent on Ctrl-C.
 */
export async function withWriter(
  root: string,
  request: string,
  opts: PrdWriterOptions,
  prdPath: string,
  write: (run: WriterRun) => Promise<WriterOutcome>,
): Promise<{ outcome: WriterOutcome; interrupted: boolean }> {
  const interactive = opts.from === undefined;
  if (interactive && !(process.stdin.isTTY && process.stdout.isTTY)) {
    throw new UsageError('an interactive PRD session needs a terminal', [
      'run it in a terminal, or write the PRD unattended: --from <feature.md | "text">',
    ]);
  }
  const config = await loadConfigOrThrow(root);
  const setup = interactive ? await resolveAgent(config, opts) : await setUpAgent(config, opts);
  // Unattended, the agent runs in its own process group: a stop request must reach it through the abort.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals = interactive ? [] : (['SIGINT', 'SIGTERM', 'SIGHUP'] as const);
  for (const signal of signals) process.on(signal, onSignal);
  try {
    const { result: outcome, stray } = await watchStrayChanges(root, () =>
      write({
        root,
        config,
        setup,
        request,
        interactive,
        signal: stop.signal,
        onEvent: (event) => {
          const line = describeEvent(event, setup.adapter.displayName, prdPath, root);
          if (line !== undefined) print(line);
        },
      }),
    );
    if (stray.length > 0) {
      printError(
        `ralph: warning: the agent also changed files outside the PRD (review them with git status): ${stray.join(', ')}`,
      );
    }
    return { outcome, interrupted: stop.signal.aborted };
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
}

export function report(outcome: WriterOutcome, name: string, editing: boolean, interrupted: boolean): number {
  const lines = describeOutcome(outcome, name, editing);
  for (const line of lines.out) print(line);
  for (const line of lines.err) printError(line);
  return interrupted && outcome.kind !== 'written' ? ExitCode.Interrupted : lines.exitCode;
}
