/** Renders the TUI over a fake session with ink-testing-library, at a chosen terminal size. */
import { render } from 'ink-testing-library';
import { vi } from 'vitest';
import { App } from '../../src/ui/tui/components/app.js';
import { type ControllerOptions, createController, type TuiController } from '../../src/ui/tui/controller.js';
import type { TuiSession } from '../../src/ui/tui/session.js';

export const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  enter: '\r',
  escape: '\x1b',
  backspace: '\x7f',
  ctrlC: '\x03',
} as const;

export interface RenderedTui {
  controller: TuiController;
  frame(): string;
  /** Sends keys one at a time, each rendered before the next. */
  press(...keys: string[]): Promise<void>;
  /** Waits until the screen contains `text` (or matches it). */
  see(text: string | RegExp, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): Promise<void>;
  unmount(): void;
}

export async function renderTui(
  session: TuiSession,
  size: { columns: number; rows: number } = { columns: 100, rows: 30 },
  options: ControllerOptions = {},
): Promise<RenderedTui> {
  const controller = createController(session, options);
  const instance = render(<App controller={controller} />);
  let current = size;
  // ink-testing-library's stdout has a fixed width; make it report ours, as a terminal would.
  Object.defineProperty(instance.stdout, 'columns', { get: () => current.columns, configurable: true });
  Object.defineProperty(instance.stdout, 'rows', { get: () => current.rows, configurable: true });
  const frame = () => instance.lastFrame() ?? '';
  const drawnAt = async (columns: number) => {
    // The dashboard's panel borders span the full width once the layout follows the new size.
    await vi
      .waitFor(
        () => {
          const widest = Math.max(
            ...frame()
              .split('\n')
              .map((l) => [...l].length),
          );
          if (widest !== columns) throw new Error(`drawn ${widest} wide, not ${columns}`);
        },
        { timeout: 1000, interval: 5 },
      )
      .catch(() => {
        // Views without full-width lines: the next `see` waits for what it needs.
      });
  };
  instance.stdout.emit('resize');
  await drawnAt(size.columns);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 15));
  return {
    controller,
    frame,
    async press(...keys) {
      await settle();
      for (const key of keys) {
        instance.stdin.write(key);
        await settle();
      }
    },
    async see(text, timeoutMs = 3000) {
      await vi.waitFor(
        () => {
          const f = frame();
          if (typeof text === 'string' ? !f.includes(text) : !text.test(f))
            throw new Error(`screen does not show ${String(text)}:\n${f}`);
        },
        { timeout: timeoutMs, interval: 10 },
      );
      return frame();
    },
    async resize(columns, rows) {
      current = { columns, rows };
      instance.stdout.emit('resize');
      await drawnAt(columns);
    },
    unmount() {
      instance.unmount();
      controller.dispose();
    },
  };
}
