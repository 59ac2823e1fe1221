/**
 * The built TUI in a real pseudo-terminal: raw-mode keys, the alternate
 * screen, resize, the bell, and the exit code. The session is the in-memory
 * fake, replaying a run on a timer.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IPty, spawn } from 'node-pty';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const DIST_TUI = join(here, '../../dist/ui/tui/run-tui.js');
const APP = join(here, 'pty-app.mjs');

let dir: string;
let sessionModule: string;
let term: IPty | undefined;

beforeAll(async () => {
  if (!existsSync(DIST_TUI)) throw new Error('dist/ui/tui is missing: run `npm run build` first');
  dir = await makeTempDir('pty');
  // The fake session has only type imports, so transpiling it alone gives a runnable module.
  const source = await readFile(join(here, 'fake-session.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  });
  sessionModule = join(dir, 'fake-session.mjs');
  await writeFile(sessionModule, outputText);
});
afterAll(async () => {
  await removeTempDir(dir);
});
afterEach(() => {
  // Only if a test failed before the app exited on its own.
  try {
    term?.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  term = undefined;
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g;
const screenText = (raw: string): string => raw.replace(ANSI, '');

interface Terminal {
  /** Everything written to the terminal so far, escapes included. */
  raw(): string;
  /** Waits until the text written since `from` (escapes removed) contains `text`. */
  see(text: string, from?: number): Promise<void>;
  mark(): number;
  exit: Promise<number>;
}

function start(columns: number, rows: number, stepMs = 20): Terminal {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', FORCE_COLOR: '1' };
  // Ink draws only the final frame when it believes it runs in CI.
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  const pty = spawn(process.execPath, [APP, sessionModule, String(stepMs)], {
    name: 'xterm-256color',
    cols: columns,
    rows,
    cwd: dir,
    env,
  });
  term = pty;
  let output = '';
  pty.onData((data) => {
    output += data;
  });
  const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    raw: () => output,
    mark: () => output.length,
    exit,
    async see(text, from = 0) {
      const deadline = Date.now() + 15_000;
      while (!screenText(output.slice(from)).includes(text)) {
        if (Date.now() > deadline)
          throw new Error(
            `the terminal never showed ${JSON.stringify(text)}:\n${screenText(output.slice(from))}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

describe('TUI in a real terminal', () => {
  it('s runs the loop to the completion screen; t shows the log; q quits with exit 0', async () => {
    const t = start(100, 30);
    await t.see('Ready — press s to start');
    expect(t.raw()).toContain('\x1b[?1049h');
    let from = t.mark();
    term?.write('s');
    await t.see('Running', from);
    await t.see('main complete', from);
    const screen = screenText(t.raw().slice(from));
    expect(screen).toMatch(/✓ US-003\s+Add shout/);
    expect(screen).toContain('Total: 3/3 passed');
    // The bell rang for the completed run.
    expect(t.raw().slice(from)).toContain('\x07');

    from = t.mark();
    term?.write('d');
    await t.see('Diff — US-001 commits', from);
    await t.see('+added line', from);
    // Additions green, removals red.
    // biome-ignore-start lint/suspicious/noControlCharactersInRegex: terminal escapes
    expect(t.raw().slice(from)).toMatch(/\x1b\[32m\+added line/);
    expect(t.raw().slice(from)).toMatch(/\x1b\[31m-removed line/);
    // biome-ignore-end lint/suspicious/noControlCharactersInRegex: terminal escapes

    from = t.mark();
    term?.write('t');
    await t.see('Log — main', from);
    await t.see('$ Bash git commit', from);
    from = t.mark();
    term?.write('q');
    await t.see('TUI-EXIT 0', from);
    expect(screenText(t.raw())).toContain('CALLS ["start main","diff main US-001"]');
    expect(t.raw()).toContain('\x1b[?1049l');
    expect(await t.exit).toBe(0);
  });

  it('re-lays out when the terminal shrinks; Ctrl-C twice stops a running loop and exits 130', async () => {
    // Slow steps: the pause of the first Ctrl-C must not reach an iteration boundary before the second.
    const t = start(100, 30, 500);
    await t.see('Ready — press s to start');
    let from = t.mark();
    term?.resize(60, 24);
    // Under 80 columns fewer key hints fit: whole ones, and always help and quit.
    await t.see('+/- limit · ? help · q quit', from);
    from = t.mark();
    term?.write('s');
    await t.see('Running', from);
    from = t.mark();
    term?.write('\x03');
    await t.see('Ctrl-C again to stop now', from);
    term?.write('\x03');
    await t.see('TUI-EXIT 130', from);
    expect(screenText(t.raw())).toContain('CALLS ["start main","pause main","stop main"]');
    expect(await t.exit).toBe(1);
  });
});
