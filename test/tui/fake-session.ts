/**
 * An in-memory TuiSession that replays scripted loop events: what the CLI's
 * session does over the real engine, without git, files or agents. Only
 * type imports, so the pty test can transpile this file on its own.
 */
import type { RunEvent } from '../../src/events/run-event.js';
import type {
  ActionResult,
  PrdSummary,
  SessionEvent,
  SettingsPatch,
  StorySummary,
  TuiSession,
  TuiSettings,
} from '../../src/ui/tui/session.js';

export interface FakeSessionOptions {
  prds: PrdSummary[];
  initial?: string;
  /** The events a start replays, per PRD (see `happyRun`). */
  scripts?: Record<string, SessionEvent[]>;
  /** Milliseconds between replayed events; null: only `advance` moves the replay on. */
  stepMs?: number | null;
  settings?: TuiSettings;
  diffs?: Record<string, string>;
  /** Problems `config.save` reports for a patch (nothing is saved when there are any). */
  validate?: (patch: SettingsPatch) => string[];
  /** `start` rejects with this message. */
  startError?: string;
  withHandOffs?: boolean;
  withMergeClean?: boolean;
}

interface Replay {
  events: SessionEvent[];
  at: number;
  pauseRequested: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  done: () => void;
}

export const defaultSettings = (): TuiSettings => ({
  agent: { provider: 'claude', model: null },
  checks: ['npm test'],
  worktree: { enabled: true, setup: null },
  onComplete: { push: false, createPR: false },
  notifications: { bell: true, desktop: false },
});

export interface FakeSession extends TuiSession {
  /** Every call the TUI made, as `start main`, `diff main US-001`, ... */
  readonly calls: string[];
  /** Sends one event as if the loop of `name` emitted it. */
  emit(name: string, event: SessionEvent): void;
  /** Replays the next `count` scripted events of `name`'s running loop. */
  advance(name: string, count?: number): void;
  /** Replays until (and including) the next event of this type (an agent event's type for `agent-event`s), or matching. */
  advanceTo(name: string, match: string | ((event: SessionEvent) => boolean)): void;
  isRunning(name: string): boolean;
  listeners(): number;
}

export function createFakeSession(options: FakeSessionOptions): FakeSession {
  const summaries = new Map(options.prds.map((p) => [p.name, structuredClone(p)]));
  const maxIterations = new Map(options.prds.map((p) => [p.name, p.maxIterations]));
  const replays = new Map<string, Replay>();
  const listeners = new Set<(name: string, event: SessionEvent) => void>();
  let settings = options.settings ?? defaultSettings();
  const calls: string[] = [];

  const send = (name: string, event: SessionEvent) => {
    applyToSummary(name, event);
    for (const listener of [...listeners]) listener(name, event);
    if (event.type === 'run-finished') {
      const replay = replays.get(name);
      replays.delete(name);
      if (replay?.timer) clearTimeout(replay.timer);
      replay?.done();
    }
  };

  function applyToSummary(name: string, event: SessionEvent): void {
    const summary = summaries.get(name);
    if (summary === undefined) return;
    const setStory = (id: string, change: Partial<StorySummary>) => {
      summary.stories = summary.stories.map((s) => (s.id === id ? { ...s, ...change } : s));
    };
    if (event.type === 'run-started') summary.running = true;
    if (event.type === 'run-finished') {
      summary.running = false;
      summary.costUsd = event.costUsd;
    }
    if (event.type === 'story-passed') {
      setStory(event.storyId, {
        status: 'done',
        attempts: event.attempt,
        costUsd: event.costUsd,
        durationMs: event.durationMs,
        progressEntry: `- Implemented ${event.title}\n- Files changed: ${event.storyId.toLowerCase()}.txt`,
      });
    }
    if (event.type === 'story-parked')
      setStory(event.storyId, { status: 'parked', lastFailure: event.reason });
  }

  function step(name: string): boolean {
    const replay = replays.get(name);
    if (replay === undefined) return false;
    const event = replay.events[replay.at];
    if (event === undefined) return false;
    // A pause takes effect between iterations, as the engine's does.
    if (replay.pauseRequested && event.type === 'iteration-started') {
      send(name, finished(name, 'interrupted', 130, 'stopped'));
      return false;
    }
    replay.at++;
    send(
      name,
      event.type === 'run-started' ? { ...event, maxIterations: maxIterations.get(name) ?? 0 } : event,
    );
    return true;
  }

  function schedule(name: string): void {
    const replay = replays.get(name);
    const stepMs = options.stepMs;
    if (replay === undefined || stepMs === null || stepMs === undefined) return;
    replay.timer = setTimeout(() => {
      replay.timer = null;
      if (step(name)) schedule(name);
    }, stepMs);
  }

  function finished(
    name: string,
    reason: 'interrupted' | 'all-done',
    exitCode: number,
    message: string,
  ): RunEvent {
    const stories = summaries.get(name)?.stories ?? [];
    return {
      type: 'run-finished',
      exitCode,
      reason,
      message,
      passed: stories.filter((s) => s.status === 'done').length,
      total: stories.length,
      parked: [],
      costUsd: summaries.get(name)?.costUsd ?? 0,
      iterations: 0,
    };
  }

  const session: FakeSession = {
    get prds() {
      return [...summaries.values()];
    },
    ...(options.initial !== undefined ? { initial: options.initial } : {}),
    calls,
    start(name) {
      calls.push(`start ${name}`);
      if (options.startError !== undefined) return Promise.reject(new Error(options.startError));
      return new Promise<void>((resolve) => {
        replays.set(name, {
          events: options.scripts?.[name] ?? [],
          at: 0,
          pauseRequested: false,
          timer: null,
          done: resolve,
        });
        schedule(name);
      });
    },
    pause(name) {
      calls.push(`pause ${name}`);
      const replay = replays.get(name);
      if (replay === undefined) return;
      replay.pauseRequested = true;
      send(name, { type: 'stop-requested', how: 'graceful' });
    },
    stopNow(name) {
      calls.push(`stop ${name}`);
      if (!replays.has(name)) return;
      send(name, { type: 'stop-requested', how: 'immediate' });
      send(name, finished(name, 'interrupted', 130, 'stopped; the interrupted attempt was rolled back'));
    },
    adjustMaxIterations(name, delta) {
      calls.push(`adjust ${name} ${delta}`);
      const value = Math.max(1, (maxIterations.get(name) ?? 0) + delta);
      maxIterations.set(name, value);
      return value;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async reloadPrd(name) {
      calls.push(`reload ${name}`);
      const summary = summaries.get(name);
      if (summary === undefined) throw new Error(`no PRD ${name}`);
      return structuredClone(summary);
    },
    async diff(name, storyId) {
      calls.push(`diff ${name} ${storyId ?? '-'}`);
      const text = options.diffs?.[storyId ?? '-'];
      if (text === undefined) throw new Error('no diff');
      return text;
    },
    config: {
      get: () => settings,
      async save(patch) {
        calls.push(`save ${JSON.stringify(patch)}`);
        const issues = options.validate?.(patch) ?? [];
        if (issues.length === 0) settings = mergeSettings(settings, patch);
        return issues;
      },
    },
    emit: send,
    advance(name, count = 1) {
      for (let i = 0; i < count; i++) if (!step(name)) return;
    },
    advanceTo(name, match) {
      const matches =
        typeof match === 'function'
          ? match
          : (e: SessionEvent) => e.type === match || (e.type === 'agent-event' && e.event.type === match);
      for (;;) {
        const replay = replays.get(name);
        const next = replay?.events[replay.at];
        if (next === undefined || !step(name) || matches(next)) return;
      }
    },
    isRunning: (name) => replays.has(name),
    listeners: () => listeners.size,
  };
  if (options.withHandOffs) {
    session.handOff = async (request, terminal) => {
      calls.push(`${request.kind} ${request.name}`);
      if (request.kind === 'edit' && request.name === 'json') {
        return { ok: false, message: 'ralph edit works on prd.md files; json is a prd-json' };
      }
      await terminal.release();
      const prd = prdSummary(request.name, [{ id: 'US-001', title: 'Written by the agent' }]);
      summaries.set(request.name, structuredClone(prd));
      return { ok: true, message: `Wrote .ralph/prds/${request.name}/prd.md: 1 story`, prd };
    };
  }
  if (options.withMergeClean) {
    session.merge = async (name): Promise<ActionResult> => {
      calls.push(`merge ${name}`);
      return { ok: true, message: `merged ralph/${name}` };
    };
    session.clean = async (name): Promise<ActionResult> => {
      calls.push(`clean ${name}`);
      return { ok: true, message: `removed the worktree of ${name}` };
    };
  }
  return session;
}

function mergeSettings(s: TuiSettings, patch: SettingsPatch): TuiSettings {
  return {
    agent: { ...s.agent, ...patch.agent },
    checks: patch.checks ?? s.checks,
    worktree: { ...s.worktree, ...patch.worktree },
    onComplete: { ...s.onComplete, ...patch.onComplete },
    notifications: { ...s.notifications, ...patch.notifications },
  };
}

export interface StoryDef {
  id: string;
  title: string;
  status?: StorySummary['status'];
}

export function prdSummary(name: string, stories: StoryDef[], extra: Partial<PrdSummary> = {}): PrdSummary {
  return {
    name,
    project: `Project ${name}`,
    branch: `ralph/${name}`,
    agent: 'claude',
    maxIterations: stories.length + 5,
    iteration: 0,
    idleTimeoutMs: 300_000,
    costUsd: 0,
    running: false,
    stories: stories.map((s) => ({
      id: s.id,
      title: s.title,
      status: s.status ?? 'todo',
      description: `As a user I want ${s.title.toLowerCase()}.`,
      acceptanceCriteria: [`${s.title} works`, 'Typecheck passes'],
      dependsOn: [],
      attempts: 0,
      costUsd: 0,
      durationMs: 0,
    })),
    ...extra,
  };
}

/** The events of a loop that passes each story on its first attempt. */
export function happyRun(
  name: string,
  stories: StoryDef[],
  options: { agent?: string } = {},
): SessionEvent[] {
  const events: SessionEvent[] = [
    {
      type: 'run-started',
      name,
      project: `Project ${name}`,
      agent: options.agent ?? 'claude',
      cwd: `/work/${name}`,
      maxIterations: stories.length + 5,
      remaining: stories.length,
      resumed: false,
    },
  ];
  stories.forEach((s, i) => {
    const iteration = i + 1;
    const file = `${s.id.toLowerCase()}.txt`;
    const agent = (event: Extract<RunEvent, { type: 'agent-event' }>['event']): SessionEvent => ({
      type: 'agent-event',
      iteration,
      storyId: s.id,
      event,
    });
    events.push(
      {
        type: 'iteration-started',
        iteration,
        maxIterations: stories.length + 5,
        storyId: s.id,
        title: s.title,
        attempt: 1,
        maxAttempts: 3,
        headBefore: 'a'.repeat(40),
      },
      agent({ type: 'session-started', sessionId: `s${iteration}` }),
      agent({ type: 'assistant-text', text: `I will implement ${s.title}.` }),
      agent({ type: 'tool-started', id: `w${iteration}`, name: 'Write', summary: file }),
      agent({ type: 'tool-finished', id: `w${iteration}`, ok: true, output: `File created: ${file}` }),
      agent({
        type: 'tool-started',
        id: `b${iteration}`,
        name: 'Bash',
        summary: `git commit -m "feat: ${s.id}"`,
      }),
      agent({
        type: 'tool-finished',
        id: `b${iteration}`,
        ok: true,
        output: '[main abc1234] feat\n 1 file changed',
      }),
      agent({ type: 'assistant-text', text: `Done with ${s.id}.\n<ralph>DONE ${s.id}</ralph>` }),
      {
        type: 'agent-exited',
        iteration,
        stopReason: 'exited',
        exitCode: 0,
        durationMs: 1500,
        stderrTail: '',
      },
      { type: 'signal', iteration, storyId: s.id, signal: 'done', detail: s.id },
      { type: 'usage', iteration, storyId: s.id, costUsd: 0.05, inputTokens: 1000, outputTokens: 200 },
      { type: 'check-started', iteration, command: 'npm test' },
      {
        type: 'check-finished',
        iteration,
        command: 'npm test',
        exitCode: 0,
        durationMs: 300,
        outputTail: 'ok',
      },
      {
        type: 'story-passed',
        iteration,
        storyId: s.id,
        title: s.title,
        attempt: 1,
        commits: [{ sha: `${iteration}`.repeat(40).slice(0, 40), subject: `feat: ${s.id} - ${s.title}` }],
        costUsd: 0.05,
        durationMs: 1800,
      },
    );
  });
  events.push({
    type: 'run-finished',
    exitCode: 0,
    reason: 'all-done',
    message: 'all stories passed',
    passed: stories.length,
    total: stories.length,
    parked: [],
    costUsd: 0.05 * stories.length,
    iterations: stories.length,
  });
  return events;
}
