// The TUI under a flood: 20,000 engine events a second for 10 seconds into the real component
// tree (controller, reducers, React, Ink) drawing to an in-memory 120×40 terminal. The dashboard
// for the first half, the log view for the second. Prints frames drawn, frame times and peak RSS.
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';

const RATE = 20_000;
const SECONDS = 10;

const settings = {
  agent: { provider: 'claude', model: null },
  checks: ['npm test'],
  worktree: { enabled: true, setup: null },
  onComplete: { push: false, createPR: false },
  notifications: { bell: false, desktop: false },
};

function summary() {
  return {
    name: 'bench',
    project: 'Bench',
    agent: 'claude',
    maxIterations: 1_000_000,
    iteration: 0,
    idleTimeoutMs: 300_000,
    costUsd: 0,
    running: false,
    stories: Array.from({ length: 30 }, (_, i) => ({
      id: `US-${String(i + 1).padStart(3, '0')}`,
      title: `Story ${i + 1}`,
      status: 'todo',
      description: 'As a user I want something.',
      acceptanceCriteria: ['It works', 'Typecheck passes'],
      dependsOn: [],
      attempts: 0,
      costUsd: 0,
      durationMs: 0,
    })),
  };
}

function session() {
  const listeners = new Set();
  return {
    prds: [summary()],
    start: () => new Promise(() => {}),
    pause() {},
    stopNow() {},
    adjustMaxIterations: () => 1,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reloadPrd: async () => summary(),
    diff: async () => '',
    config: { get: () => settings, save: async () => [] },
    emit(event) {
      for (const listener of listeners) listener('bench', event);
    },
  };
}

/** The n-th event of an agent at work: text, tool calls and their results, a new iteration now and then. */
function eventAt(n) {
  const iteration = Math.floor(n / 2000) + 1;
  const storyId = `US-${String((iteration % 30) + 1).padStart(3, '0')}`;
  if (n % 2000 === 0) {
    return {
      type: 'iteration-started',
      iteration,
      maxIterations: 1_000_000,
      storyId,
      title: `Story ${storyId}`,
      attempt: 1,
      maxAttempts: 3,
      headBefore: 'a'.repeat(40),
    };
  }
  const agent = (event) => ({ type: 'agent-event', iteration, storyId, event });
  switch (n % 4) {
    case 0:
      return agent({ type: 'assistant-text', text: `Step ${n}: reading the code and making a change.` });
    case 1:
      return agent({
        type: 'tool-started',
        id: `t${n}`,
        name: 'Bash',
        summary: `npm test -- --grep case-${n}`,
      });
    case 2:
      return agent({ type: 'tool-finished', id: `t${n - 1}`, ok: true, output: `ok ${n}\n1 passing` });
    default:
      return { type: 'usage', iteration, storyId, costUsd: 0.0001, inputTokens: 10, outputTokens: 5 };
  }
}

function terminal() {
  const stdout = Object.assign(new EventEmitter(), {
    columns: 120,
    rows: 40,
    isTTY: true,
    bytes: 0,
    write(chunk) {
      stdout.bytes += chunk.length;
      return true;
    },
  });
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode() {
      return stdin;
    },
    ref() {},
    unref() {},
  });
  return { stdout, stdin };
}

const percentile = (values, p) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** React's production build, as `ralph run` loads the TUI (src/cli/tui-session.ts). */
async function loadTui() {
  process.env.NODE_ENV ??= 'production';
  const [{ render }, { default: React }, { App }, { createController }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../dist/ui/tui/components/app.js'),
    import('../dist/ui/tui/controller.js'),
  ]);
  return { render, React, App, createController };
}

function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
}

export async function benchTui() {
  const { render, React, App, createController } = await loadTui();
  const fake = session();
  const controller = createController(fake);
  // Each notification of the tree, timed to the end of the React work it starts (a microtask after).
  const frameTimes = [];
  const timed = {
    ...controller,
    subscribe(listener) {
      return controller.subscribe(() => {
        const start = performance.now();
        listener();
        const view = controller.getState().view.kind;
        queueMicrotask(() => frameTimes.push({ view, ms: performance.now() - start }));
      });
    },
  };
  const { stdout, stdin } = terminal();
  const outputTimes = [];
  const times = (view) => frameTimes.filter((f) => view === undefined || f.view === view).map((f) => f.ms);
  const instance = render(React.createElement(App, { controller: timed }), {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: false,
    onRender: ({ renderTime }) => outputTimes.push(renderTime),
  });

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);

  fake.emit({
    type: 'run-started',
    name: 'bench',
    project: 'Bench',
    agent: 'claude',
    cwd: '/bench',
    maxIterations: 1_000_000,
    remaining: 30,
    resumed: false,
  });
  const start = performance.now();
  let sent = 0;
  let switched = false;
  await new Promise((resolve) => {
    const feed = setInterval(() => {
      const elapsed = (performance.now() - start) / 1000;
      if (!switched && elapsed >= SECONDS / 2) {
        switched = true;
        stdin.write('t');
      }
      const due = Math.min(RATE * SECONDS, Math.floor(RATE * elapsed));
      while (sent < due) fake.emit(eventAt(sent++));
      if (elapsed >= SECONDS) {
        clearInterval(feed);
        resolve();
      }
    }, 5);
  });
  const seconds = (performance.now() - start) / 1000;
  await new Promise((r) => setTimeout(r, 100));
  clearInterval(sampler);
  const cards = controller.getState().prds[0]?.run.log.cards;
  collectGarbage();
  const heldMb = process.memoryUsage().heapUsed / 1024 / 1024;
  instance.unmount();
  controller.dispose();

  const ms = (v) => `${v.toFixed(2)} ms`;
  console.log(
    `events fed                                       ${sent} in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s)`,
  );
  console.log(
    `frames drawn (terminal writes)                   ${outputTimes.length} (${(outputTimes.length / seconds).toFixed(1)}/s)`,
  );
  console.log(`tree updates (React commits)                     ${frameTimes.length}`);
  for (const view of ['dashboard', 'log']) {
    const t = times(view);
    console.log(
      `frame time, ${view.padEnd(9)} state -> committed tree  p50 ${ms(percentile(t, 50))}, p99 ${ms(percentile(t, 99))}, max ${ms(Math.max(0, ...t))} (${t.length} frames)`,
    );
  }
  console.log(
    `frame time, tree -> terminal text               p50 ${ms(percentile(outputTimes, 50))}, p99 ${ms(percentile(outputTimes, 99))}`,
  );
  console.log(
    `log cards kept (bounded)                         ${cards?.size ?? 0} (${cards?.dropped ?? 0} dropped)`,
  );
  console.log(`peak RSS                                         ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
  console.log(`heap held after the flood (after a GC)           ${heldMb.toFixed(0)} MB`);
  console.log(
    `bytes written to the terminal                    ${(stdout.bytes / 1024 / 1024).toFixed(1)} MB`,
  );
}
