/** What the loop commands were asked to do, as the command line parsed it (`src/cli` builds these). */
import { UsageError } from '../core/errors.js';

/** The workspace options of every loop command: where it runs, and what happens when it is done. */
export interface WorkspaceFlags {
  worktree?: boolean;
  branch?: string;
  allowDirty?: boolean;
  /** Take the run's lock even if another run seems to hold it. */
  force?: boolean;
  push?: boolean;
  pr?: boolean;
  /** `--sandbox` / `--no-sandbox`: the agent, its gates and hooks in a sandbox (default: config `sandbox.enabled`). */
  sandbox?: boolean;
}

/** `--source github [--label L] [--repo OWNER/REPO]`: a label's open issues instead of a task file. */
export interface SourceFlags {
  source?: string;
  label?: string;
  repo?: string;
}

/** Whether the flags ask for GitHub issues; any other `--source` is a usage error. */
export function wantsGithub(flags: SourceFlags): boolean {
  if (flags.source === undefined) {
    if (flags.label !== undefined || flags.repo !== undefined)
      throw new UsageError('--label and --repo go with --source github');
    return false;
  }
  if (flags.source !== 'github')
    throw new UsageError(`unknown --source ${JSON.stringify(flags.source)}`, [
      'the one source besides task files is github',
    ]);
  return true;
}

export interface RunOptions extends WorkspaceFlags, SourceFlags {
  agent?: string;
  agentPath?: string;
  model?: string;
  maxIterations?: number;
  timeout?: number;
  idleTimeout?: number;
  maxRetries?: number;
  maxCost?: number;
  /** `--outage-wait SECS`: how long an API outage is waited out. */
  outageWait?: number;
  story?: string;
  resumeFrom?: string;
  dryRun?: boolean;
  headless?: boolean;
  json?: boolean;
  verbose?: boolean;
  log?: string;
  parallel?: number;
  worker?: boolean;
  /** `--notify URL`, repeatable: webhooks for this run, beside the config's. */
  notify?: string[];
  /** `--wait`: wait for answers when only stories waiting for them are left. */
  wait?: boolean;
}

export interface GoalOptions extends WorkspaceFlags {
  file?: string;
  name?: string;
  criterion?: string[];
  minIterations?: number;
  idleThreshold?: number;
  agent?: string;
  agentPath?: string;
  model?: string;
  maxIterations?: number;
  timeout?: number;
  idleTimeout?: number;
  maxRetries?: number;
  maxCost?: number;
  outageWait?: number;
  dryRun?: boolean;
  headless?: boolean;
  json?: boolean;
  verbose?: boolean;
  log?: string;
  notify?: string[];
  /** `--wait`: when the agent needs a person, wait for the answer instead of stopping. */
  wait?: boolean;
}

/** Iterations a goal run may use when neither the command line, the goal file nor the config says. */
export const DEFAULT_GOAL_MAX_ITERATIONS = 50;
