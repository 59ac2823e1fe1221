/**
 * The built `ralph` in a real pseudo-terminal (node-pty), its output fed to a
 * terminal emulator (@xterm/headless): tests read the screen a user would see,
 * cell by cell, not the escape bytes that drew it.
 */
import xterm from '@xterm/headless';
import { type IPty, spawn } from 'node-pty';
import { afterEach } from 'vitest';
import { RALPH_BIN } from '../support/ralph-cli.js';

export interface TerminalOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  columns: number;
  rows: number;
  /** Default: the built ralph CLI. */
  command?: string;
}

export interface Screen {
  /** The visible rows, trailing blanks trimmed. */
  rows: string[];
  text: string;
  /** Rows the emulator had to wrap: a drawn line wider than the terminal. */
  wrapped: number[];
  /** The characters drawn in a colour (foreground or background other than the terminal's own). */
  colored: string;
  /** The characters drawn in inverse video (the focused row). */
  inverse: string;
}

export interface RalphTerminal {
  screen(): Screen;
  /** Everything the program printed on the normal (shell) screen, scrollback included. */
  shell(): string;
  /** Every byte written to the terminal so far, escape sequences included. */
  raw(): string;
  /** The window titles the output set (OSC 0 / OSC 2), in order. */
  titles(): readonly string[];
  /** Waits until the screen shows `what`; returns that screen. */
  see(what: string | RegExp | ((screen: Screen) => boolean), timeoutMs?: number): Promise<Screen>;
  /** Waits until the screen no longer shows `what`. */
  gone(what: string | RegExp, timeoutMs?: number): Promise<Screen>;
  /** Writes keys in one write, as a fast typist or a held key sends them. */
  type(keys: string): void;
  resize(columns: number, rows: number): void;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  kill(): void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const BEGIN_FRAME = '\x1b[?2026h';
const END_FRAME = '\x1b[?2026l';
/** Output arriving this close together is one burst: read the screen after it. */
const QUIET_MS = 40;
/** After the exit, output this long in coming is taken as all there was. */
const DRAIN_MS = 150;

/** The CLI under test; RALPH_TUI_TEST_BIN points the suite at another build (e.g. an older one, to see a test fail). */
const BIN = process.env.RALPH_TUI_TEST_BIN ?? RALPH_BIN;

/** The test's environment without CI markers (Ink draws only a final frame under CI) or the machine's RALPH_*. */
export function terminalEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('RALPH_')) continue;
    env[key] = value;
  }
  return { ...env, TERM: 'xterm-256color', ...extra };
}

export function startRalph(args: readonly string[], options: TerminalOptions): RalphTerminal {
  const term = new xterm.Terminal({
    cols: options.columns,
    rows: options.rows,
    allowProposedApi: true,
    scrollback: 1000,
  });
  const pty: IPty = spawn(options.command ?? process.execPath, [BIN, ...args], {
    name: 'xterm-256color',
    cols: options.columns,
    rows: options.rows,
    cwd: options.cwd,
    env: options.env,
  });
  // A frame may reach us in several reads: Ink brackets each one in a synchronized update
  // (ESC[?2026h … ESC[?2026l), so a screen is only read between frames, once the emulator caught up.
  let pending = 0;
  let inFrame = false;
  let lastDataAt = 0;
  let raw = '';
  const titles: string[] = [];
  term.onTitleChange((title) => titles.push(title));
  pty.onData((data) => {
    raw += data;
    pending++;
    lastDataAt = Date.now();
    const begin = data.lastIndexOf(BEGIN_FRAME);
    const end = data.lastIndexOf(END_FRAME);
    if (begin >= 0 || end >= 0) inFrame = begin > end;
    term.write(data, () => {
      pending--;
    });
  });
  let exitCode: number | null = null;
  // The exit can be reported before the last output is read: settle once that has drained too.
  const exited = new Promise<number>((resolve) =>
    pty.onExit(({ exitCode: code }) => {
      exitCode = code;
      const exitAt = Date.now();
      const drained = () => {
        if (pending === 0 && Date.now() - Math.max(exitAt, lastDataAt) >= DRAIN_MS) resolve(code);
        else setTimeout(drained, 20);
      };
      drained();
    }),
  );

  const screen = (): Screen => {
    const buffer = term.buffer.active;
    const rows: string[] = [];
    const wrapped: number[] = [];
    let colored = '';
    let inverse = '';
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      rows.push(line?.translateToString(true) ?? '');
      if (line?.isWrapped) wrapped.push(y);
      for (let x = 0; x < term.cols; x++) {
        const cell = line?.getCell(x);
        if (cell && !(cell.isFgDefault() && cell.isBgDefault())) colored += cell.getChars() || ' ';
        if (cell?.isInverse()) inverse += cell.getChars() || ' ';
      }
    }
    return { rows, text: rows.join('\n'), wrapped, colored, inverse };
  };
  const matches = (s: Screen, what: string | RegExp | ((screen: Screen) => boolean)): boolean =>
    typeof what === 'string' ? s.text.includes(what) : what instanceof RegExp ? what.test(s.text) : what(s);
  const settled = () => pending === 0 && !inFrame && Date.now() - lastDataAt >= QUIET_MS;

  const waitFor = async (test: (s: Screen) => boolean, describe: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (settled()) {
        const s = screen();
        if (test(s)) return s;
      }
      if (Date.now() > deadline) {
        throw new Error(`${describe} within ${timeoutMs} ms; the screen:\n${screen().text}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  return {
    screen,
    shell() {
      const buffer = term.buffer.normal;
      const lines: string[] = [];
      for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
      return lines.join('\n');
    },
    raw: () => raw,
    titles: () => titles,
    see: (what, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitFor((s) => matches(s, what), `the screen never showed ${String(what)}`, timeoutMs),
    gone: (what, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitFor((s) => !matches(s, what), `the screen kept showing ${String(what)}`, timeoutMs),
    type(keys) {
      pty.write(keys);
    },
    resize(columns, rows) {
      pty.resize(columns, rows);
      term.resize(columns, rows);
    },
    exited,
    get exitCode() {
      return exitCode;
    },
    kill() {
      try {
        pty.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}

export const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  enter: '\r',
  escape: '\x1b',
  ctrlC: '\x03',
} as const;

/**
 * For a test file: `start` runs ralph in a terminal, `defer` registers a
 * cleanup; after each test the terminal is killed (if the test left it
 * running) and the cleanups run, newest first.
 */
export function terminalTests(): {
  start(args: readonly string[], options: TerminalOptions): RalphTerminal;
  defer(cleanup: () => Promise<void>): void;
} {
  let term: RalphTerminal | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    term?.kill();
    term = undefined;
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    start(args, options) {
      term = startRalph(args, options);
      return term;
    },
    defer: (cleanup) => cleanups.push(cleanup),
  };
}

/** Where and how a scripted project's `ralph` runs in a terminal: its checkout, its Claude Code, this size. */
export function inProject(
  project: { repo: { dir: string }; claude: { env: NodeJS.ProcessEnv; binaryPath: string } },
  columns: number,
  rows: number,
): TerminalOptions {
  return {
    cwd: project.repo.dir,
    env: terminalEnv({ ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath }),
    columns,
    rows,
  };
}
