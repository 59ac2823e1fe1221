/**
 * The write-back of a run over GitHub issues, as a follower of its events:
 * `ralph:in-progress` while a story's attempt runs, a comment naming the
 * commits and the branch when it passes (its `ralph:done` label is the task
 * source's own write, made before the run goes on), `ralph:parked` and a
 * comment with the reason when it is parked, and the agent's question as a
 * comment. The runners know nothing of GitHub: they emit events, and this
 * is one more sink (app/event-sinks.ts). Calls are made one at a time in
 * the events' order; a call that fails is reported once and the run goes on.
 */
import { parkComment, passComment, questionComment, RALPH_LABELS } from '../core/github-comments.js';
import type { RunEventRecord } from '../events/run-event.js';
import { currentBranch } from '../git/index.js';
import type { IssuesApi } from '../github/issues-api.js';
import { issueNumberOf } from '../sources/github-issues.js';
import type { EventFollower } from './event-sinks.js';

export interface GithubWriteBackOptions {
  api: IssuesApi;
  /** The run's name, for the commands a comment suggests. */
  run: string;
  /** A call GitHub refused, once per kind of call: the run goes on without it. */
  failed(message: string): void;
  /** The branch checked out in `cwd`; default asks git. */
  branchAt?: (cwd: string) => Promise<string | null>;
}

export function githubWriteBack(options: GithubWriteBackOptions): EventFollower {
  const { api } = options;
  const branchAt = options.branchAt ?? currentBranch;
  let queue: Promise<void> = Promise.resolve();
  let branch: string | null = null;
  let cwd: string | null = null;
  /** Issues this run labelled in progress and has not settled yet. */
  const working = new Set<number>();
  const reported = new Set<string>();

  const later = (what: string, call: () => Promise<void>) => {
    queue = queue.then(call).catch((error: unknown) => {
      if (reported.has(what)) return;
      reported.add(what);
      options.failed(
        `could not ${what} on GitHub: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };

  const follow = (event: RunEventRecord): void => {
    switch (event.type) {
      case 'run-started':
        cwd = event.cwd;
        return;
      case 'worktree-created':
      case 'worktree-reused':
      case 'branch-switched':
        branch = event.branch;
        return;
      case 'parallel-started':
        branch = event.prdBranch;
        return;
      case 'iteration-started': {
        const issue = event.storyId ? issueNumberOf(event.storyId) : null;
        if (issue === null || working.has(issue)) return;
        working.add(issue);
        later('label an issue in progress', async () => {
          await api.addLabels(issue, [RALPH_LABELS.inProgress]);
          await api.removeLabel(issue, RALPH_LABELS.parked);
        });
        return;
      }
      case 'story-passed': {
        const issue = issueNumberOf(event.storyId);
        if (issue === null) return;
        working.delete(issue);
        const commits = event.commits;
        later('comment on a passed issue', async () => {
          const on = branch ?? (cwd === null ? null : await branchAt(cwd).catch(() => null));
          await api.comment(
            issue,
            passComment({
              storyId: event.storyId,
              commits,
              branch: on,
              attempt: event.attempt,
              costUsd: event.costUsd,
            }),
          );
          // In case the label of the attempt's start landed after the pass took it off.
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
        });
        return;
      }
      case 'story-parked': {
        const issue = issueNumberOf(event.storyId);
        if (issue === null) return;
        working.delete(issue);
        later('mark an issue parked', async () => {
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
          await api.addLabels(issue, [RALPH_LABELS.parked]);
          await api.comment(
            issue,
            parkComment({
              storyId: event.storyId,
              attempts: event.attempts,
              reason: event.reason,
              run: options.run,
            }),
          );
        });
        return;
      }
      case 'question-asked': {
        const issue = event.storyId ? issueNumberOf(event.storyId) : null;
        if (issue === null || !event.storyId) return;
        const storyId = event.storyId;
        working.delete(issue);
        later('post a question on an issue', async () => {
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
          await api.comment(issue, questionComment({ storyId, question: event.question, run: options.run }));
        });
        return;
      }
      case 'run-finished': {
        // What was left in progress (stopped, interrupted) is not being worked on any more.
        const left = [...working];
        working.clear();
        for (const issue of left)
          later('clear an in-progress label', () => api.removeLabel(issue, RALPH_LABELS.inProgress));
        return;
      }
      default:
        return;
    }
  };

  return { follow, settled: () => queue };
}
