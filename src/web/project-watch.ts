import { stat } from 'node:fs/promises';
import path from 'node:path';
import { prdsDir, runFiles, runsDir } from '../state/layout.js';
import { EventLogFollower } from './event-log-follower.js';
import { discoverRuns, filesOf, type RunRef, readRunView } from './read-runs.js';
import { type SteadyMemory, steadyView } from './steady-count.js';
import type { LogLine, ProjectView, RunView } from './view.js';

/** A run's view is read again at least this often: a lock's holder may die without a file changing. */
const MAX_VIEW_AGE_MS = 5_000;
/** The runs are looked for again this often, and whenever `.ralph/prds/` or `.ralph/runs/` changes. */
const REDISCOVER_MS = 5_000;

export interface ProjectWatchOptions {
  root: string;
  intervalMs: number;
  /** The project's view changed (a story passed, a question came, a run started or ended). */
  onView: (view: ProjectView) => void;
  /** New lines in a run's log; `reset` when its `events.jsonl` was replaced. */
  onLog: (run: string, lines: LogLine[], reset: boolean) => void;
  now?: () => Date;
}

interface Watched {
  ref: RunRef;
  follower: EventLogFollower;
  signature: string;
  readAt: number;
  view: RunView;
  steady: SteadyMemory;
}

/**
 * Follows every run of a project on disk, whoever runs it: each look finds
 * the runs, reads what their `events.jsonl` gained, and reads a run's other
 * files again only when their size or time changed. Polled: file events do
 * not cross machines sharing the folder, and a look costs a few `stat`s per run.
 */
export class ProjectWatch {
  readonly #options: ProjectWatchOptions;
  readonly #runs = new Map<string, Watched>();
  #view: ProjectView;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #looking: Promise<void> | null = null;
  #closed = false;
  #refs: RunRef[] = [];
  #discovered = { at: Number.NEGATIVE_INFINITY, folders: '' };

  constructor(options: ProjectWatchOptions) {
    this.#options = options;
    this.#view = { project: path.basename(options.root), runs: [], at: this.#now().toISOString() };
  }

  get view(): ProjectView {
    return this.#view;
  }

  /** A run by name, as last looked at. */
  find(run: string): { ref: RunRef; view: RunView } | null {
    const watched = this.#runs.get(run);
    return watched ? { ref: watched.ref, view: watched.view } : null;
  }

  recent(run: string): readonly LogLine[] {
    return this.#runs.get(run)?.follower.recent ?? [];
  }

  /** Looks now, then every `intervalMs` until closed. */
  async start(): Promise<void> {
    await this.look();
    this.#schedule();
  }

  /** One look at every run; concurrent callers share the look under way. */
  look(): Promise<void> {
    this.#looking ??= this.#lookOnce().finally(() => {
      this.#looking = null;
    });
    return this.#looking;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.look()
        .catch(() => undefined)
        .finally(() => this.#schedule());
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  async #lookOnce(): Promise<void> {
    const { root } = this.#options;
    const refs = await this.#discover();
    let changed = refs.length !== this.#runs.size;
    const seen = new Set<string>();
    for (const ref of refs) {
      seen.add(ref.name);
      if (await this.#lookAt(ref)) changed = true;
    }
    for (const name of [...this.#runs.keys()]) if (!seen.has(name)) this.#runs.delete(name);
    if (!changed) return;
    this.#view = {
      project: path.basename(root),
      runs: refs.flatMap((ref) => {
        const watched = this.#runs.get(ref.name);
        return watched ? [watched.view] : [];
      }),
      at: this.#now().toISOString(),
    };
    this.#options.onView(this.#view);
  }

  async #discover(): Promise<RunRef[]> {
    const { root } = this.#options;
    const folders = (await Promise.all([prdsDir(root), runsDir(root)].map(fingerprint))).join('|');
    const now = Date.now();
    if (folders !== this.#discovered.folders || now - this.#discovered.at > REDISCOVER_MS) {
      this.#refs = await discoverRuns(root);
      this.#discovered = { at: now, folders };
    }
    return this.#refs;
  }

  /** Whether the run's view changed. */
  async #lookAt(ref: RunRef): Promise<boolean> {
    const { root } = this.#options;
    let watched = this.#runs.get(ref.name);
    const follower = watched?.follower ?? new EventLogFollower(runFiles(ref.runDir).events);
    const update = await follower.look();
    if (update.lines.length > 0 || update.reset) this.#options.onLog(ref.name, update.lines, update.reset);
    const signature = [
      ref.kind,
      ...(await Promise.all(filesOf(root, ref).map(fingerprint))),
      String(follower.activityVersion),
    ].join('|');
    const now = Date.now();
    // A live run is looked at every time: its holder may die without a file changing, and the page says so at once.
    const maxAge = watched?.view.live ? 0 : MAX_VIEW_AGE_MS;
    if (watched && watched.signature === signature && now - watched.readAt < maxAge) return false;
    const read = await readRunView(root, ref, follower.activity);
    const { view, memory } = steadyView(read, watched?.steady, now);
    const same = watched !== undefined && JSON.stringify(watched.view) === JSON.stringify(view);
    watched = { ref, follower, signature, readAt: now, view, steady: memory };
    this.#runs.set(ref.name, watched);
    return !same;
  }

  #now(): Date {
    return (this.#options.now ?? (() => new Date()))();
  }
}

async function fingerprint(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}
