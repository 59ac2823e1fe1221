/** What the loop commands were asked to do, as the command line parsed it (`src/cli` builds these). */
import { UsageError } from '../core/errors.js';
import type { LimitFlags } from '../run/run-limits.js';

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

/** Which agent a loop runs, as the command line names it. */
export interface AgentFlags {
  agent?: string;
  agentPath?: string;
  model?: string;
}

/** How a loop shows itself, and who hears from it. */
export interface LoopOutputFlags {
  dryRun?: boolean;
  headless?: boolean;
  json?: boolean;
  verbose?: boolean;
  log?: string;
  /** `--notify URL`, repeatable: webhooks for this run, beside the config's. */
  notify?: string[];
  /** `--wait`: when only the agent's questions hold the run up, wait for the answers instead of stopping. */
  wait?: boolean;
}

export interface RunOptions extends WorkspaceFlags, SourceFlags, AgentFlags, LimitFlags, LoopOutputFlags {
  story?: string;
  resumeFrom?: string;
  parallel?: number;
  worker?: boolean;
}

/** A goal run has no stories: no per-story budget. */
export interface GoalOptions
  extends WorkspaceFlags,
    AgentFlags,
    Omit<LimitFlags, 'maxCostPerStory'>,
    LoopOutputFlags {
  file?: string;
  name?: string;
  criterion?: string[];
  minIterations?: number;
  idleThreshold?: number;
}

/** Iterations a goal run may use when neither the command line, the goal file nor the config says. */
export const DEFAULT_GOAL_MAX_ITERATIONS = 50;
