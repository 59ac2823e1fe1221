import path from 'node:path';

/** The files of one goal run, in `.ralph/runs/<name>/`. */
export interface GoalRunFiles {
  dir: string;
  /** The run's state, human-readable: `PROGRESS.yaml`. */
  progress: string;
  events: string;
  lock: string;
  log: string;
}

export function goalRunFiles(dir: string): GoalRunFiles {
  return {
    dir,
    progress: path.join(dir, 'PROGRESS.yaml'),
    events: path.join(dir, 'events.jsonl'),
    lock: path.join(dir, 'lock'),
    log: path.join(dir, 'ralph.log'),
  };
}
