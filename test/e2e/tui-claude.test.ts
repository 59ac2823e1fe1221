import { join } from 'node:path';
import { type IPty, spawn } from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/registry.js';
import { STORY_PROMPT } from '../../src/core/embedded-prompts.js';
import { runLoop } from '../../src/sequential/sequential-runner.js';
import { openTaskSource, readPrd } from '../../src/sources/load-task-source.js';
import { defaultConfig } from '../../src/state/config-schema.js';
import type { PrdSummary, SessionEvent, TuiSession } from '../../src/ui/tui/session.js';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { processesIn } from '../support/processes.js';
import { RALPH_BIN } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { defaultSettings } from '../tui/fake-session.js';
import { type RenderedTui, renderTui } from '../tui/render-tui.js';

const THREE = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g;

let project: LoopProject | undefined;
let term: IPty | undefined;
let tui: RenderedTui | undefined;
afterEach(async () => {
  tui?.unmount();
  tui = undefined;
  try {
    term?.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  term = undefined;
  await project?.cleanup();
  project = undefined;
});

/**
 * Just enough of a session to run the engine for one prd.json in the
 * project's checkout; the CLI's own session adds worktrees, config and git.
 */
function engineSession(p: LoopProject): TuiSession {
  const listeners = new Set<(name: string, event: SessionEvent) => void>();
  const stop = new AbortController();
  const kill = new AbortController();
  const adapter = getAdapter('claude');
  if (adapter === undefined) throw new Error('no claude adapter');
  const taskPath = join(p.repo.dir, 'prd.json');
  const summary = async (): Promise<PrdSummary> => {
    const read = await readPrd(taskPath);
    if (!read.ok) throw new Error('prd.json is invalid');
    return {
      name: 'demo',
      project: read.prd.project,
      agent: 'claude',
      maxIterations: read.prd.stories.length + 5,
      iteration: 0,
      idleTimeoutMs: 60_000,
      costUsd: 0,
      running: false,
      stories: read.prd.stories.map((s) => ({ ...s, attempts: 0, costUsd: 0, durationMs: 0 })),
    };
  };
  return {
    prds: [],
    start: (name) =>
      runLoop({
        cwd: p.repo.dir,
        name,
        source: openTaskSource(taskPath),
        progressPath: join(p.repo.dir, 'progress.md'),
        runDir: join(p.repo.dir, '.ralph', 'runs', name),
        config: defaultConfig(),
        agent: { adapter, binaryPath: p.claude.binaryPath, extraArgs: [], env: p.claude.env },
        limits: { timeoutMs: 60_000, idleTimeoutMs: 60_000, maxRetries: 3, rateLimitBackoffMs: 10 },
        promptTemplate: STORY_PROMPT,
        stopSignal: stop.signal,
        killSignal: kill.signal,
        emit: (event) => {
          for (const listener of listeners) listener(name, event);
        },
      }),
    pause: () => stop.abort(),
    stopNow: () => kill.abort(),
    adjustMaxIterations: () => 8,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reloadPrd: summary,
    diff: async () => '',
    config: { get: defaultSettings, save: async () => [] },
  };
}

describe('the TUI over the engine, with Claude Code', () => {
  it('s runs two stories (one retried) to the completion screen; the log has the cards; q exits 0', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(THREE.slice(0, 2)) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        // The first attempt claims DONE without committing: rolled back and retried.
        'US-002': [
          [{ text: 'Done.\n<ralph>DONE US-002</ralph>' }],
          implement('US-002', 'Add farewell', 'bye.txt', 'bye\n'),
        ],
      },
    );
    const base = engineSession(project);
    const session: TuiSession = { ...base, prds: [await base.reloadPrd('demo')] };
    tui = await renderTui(session, { columns: 110, rows: 34 });
    await tui.see('Ready — press s to start');
    await tui.press('s');
    const done = await tui.see('demo complete', 90_000);
    expect(done).toMatch(/✓ US-001\s+Add greeting\s+\S+\s+1\s+\$/);
    expect(done).toMatch(/✓ US-002\s+Add farewell\s+\S+\s+2\s+\$/);
    expect(done).toContain('Total: 2/2 passed · 3 iterations');
    await tui.press('t', 'g');
    const log = await tui.see('── iteration 1 · US-001 Add greeting');
    expect(log).toContain('✎ Write greet.txt  ✓');
    expect(log).toContain('$ Bash git add -A && git commit');
    expect(log).toMatch(/US-002 attempt 1\/3 failed \(no-commit\)/);
    await tui.press('q');
    expect(await tui.controller.exited).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
    expect(processesIn(project.repo.dir)).toEqual([]);
  });
});

describe('ralph run in a terminal, with Claude Code', () => {
  it('s runs a 3-story PRD to the completion screen; q quits with 0 and leaves no processes', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(THREE) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    const env: NodeJS.ProcessEnv = {
      ...project.claude.env,
      RALPH_AGENT_PATH: project.claude.binaryPath,
      TERM: 'xterm-256color',
    };
    const pty = spawn(process.execPath, [RALPH_BIN, 'run', 'prd.json', '--no-worktree'], {
      name: 'xterm-256color',
      cols: 110,
      rows: 32,
      cwd: project.repo.dir,
      env,
    });
    term = pty;
    let output = '';
    pty.onData((d) => {
      output += d;
    });
    const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    const see = async (text: string, from = 0) => {
      const deadline = Date.now() + 90_000;
      while (!output.slice(from).replace(ANSI, '').includes(text)) {
        if (Date.now() > deadline)
          throw new Error(`never showed ${text}:\n${output.slice(from).replace(ANSI, '')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    await see('Ready — press s to start');
    const from = output.length;
    pty.write('s');
    await see('complete', from);
    const screen = output.slice(from).replace(ANSI, '');
    for (const s of THREE) expect(screen).toMatch(new RegExp(`✓ ${s.id}\\s+${s.title}`));
    expect(screen).toContain('3/3 passed');
    pty.write('q');
    expect(await exit).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
      'feat: US-003 - Add shout',
    ]);
    expect(processesIn(project.repo.dir)).toEqual([]);
  });

  it('bare ralph on a terminal opens the TUI on the only PRD, ready; q quits with 0', async () => {
    project = await createLoopProject({ '.ralph/prds/demo/prd.json': prdJson(THREE) }, {});
    const pty = spawn(process.execPath, [RALPH_BIN], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: project.repo.dir,
      env: { ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath, TERM: 'xterm-256color' },
    });
    term = pty;
    let output = '';
    pty.onData((d) => {
      output += d;
    });
    const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    const deadline = Date.now() + 30_000;
    while (!output.replace(ANSI, '').includes('Ready — press s to start')) {
      if (Date.now() > deadline) throw new Error(`no TUI:\n${output.replace(ANSI, '')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(output.replace(ANSI, '')).toContain('US-001');
    pty.write('q');
    expect(await exit).toBe(0);
    expect(project.server.modelCalls()).toHaveLength(0);
  });
});
