/**
 * The write-back of a run over GitHub issues, as a follower of its events.
 * Git is the truth and GitHub is told after: a story's `ralph:done` label
 * and its "passed" comment are effects of its landing on the run's branch,
 * never evidence of it. What a story's end owes GitHub (the pass, a park, a
 * question) is recorded in the run's outbox (state/outbox.ts) before the
 * event is written, and delivered from there, in order; a run killed before
 * the delivery was done leaves it owed, and the next run delivers it. A
 * delivery is idempotent: its comment carries a marker (an HTML comment) a
 * retry looks for before posting, and labels are set to the state, not
 * toggled. A pass whose record is not on the branch is not told at all.
 * `ralph:in-progress` while an attempt runs is a courtesy, not owed.
 */
import { randomUUID } from 'node:crypto';
import {
  parkComment,
  passComment,
  questionComment,
  RALPH_LABELS,
  withMarker,
} from '../core/github-comments.js';
import { passCommitSubject, passedStoryIds } from '../core/pass-commit.js';
import type { RunEventRecord } from '../events/run-event.js';
import { currentBranch, git } from '../git/index.js';
import type { IssuesApi } from '../github/issues-api.js';
import { issueNumberOf } from '../sources/github-issues.js';
import { runFiles } from '../state/layout.js';
import { type GithubEffect, type Intent, openOutbox } from '../state/outbox.js';
import { readRunState } from '../state/run-state.js';
import type { EventFollower } from './event-sinks.js';

export interface GithubWriteBackOptions {
  api: IssuesApi;
  /** The run's name, for the commands a comment suggests. */
  run: string;
  /** The run's folder: its outbox and its state. */
  runDir: string;
  /** The label whose open issues are the run's stories. */
  label: string;
  /** A call GitHub refused, once per kind of call: the run goes on without it, and owes it still. */
  failed(message: string): void;
}

export function githubWriteBack(options: GithubWriteBackOptions): EventFollower {
  const { api } = options;
  const outbox = openOutbox(runFiles(options.runDir).outbox);
  let queue: Promise<void> = Promise.resolve();
  let branch: string | null = null;
  /** A parallel run's PRD branch: its stories' own worktrees and branches come and go beside it. */
  let parallel = false;
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
  const branchNow = async (): Promise<string | null> =>
    branch ?? (cwd === null ? null : await currentBranch(cwd).catch(() => null));
  const deliverLater = (intent: Intent) => {
    if (intent.owed.kind !== 'github') return;
    const effect = intent.owed.effect;
    later(WHAT[effect.type], async () => {
      await deliver(intent.id, effect);
      outbox.done(intent.id);
    });
  };
  const owe = (effect: GithubEffect, at: string) =>
    deliverLater(outbox.record(randomUUID(), { kind: 'github', effect }, new Date(at)));

  const deliver = async (id: string, effect: GithubEffect): Promise<void> => {
    switch (effect.type) {
      case 'passed': {
        const on = effect.branch ?? (await branchNow());
        const landed = cwd === null || on === null ? null : await passCommitOn(cwd, on, effect.storyId);
        // Not on the branch: nothing true to tell (git is the truth; recovery lands the story and tells then).
        if (landed === null) return;
        await commentOnce(effect.issue, `passed ${effect.storyId} ${landed.slice(0, 12)}`, () =>
          passComment({ ...effect, branch: on }),
        );
        await api.addLabels(effect.issue, [RALPH_LABELS.done]);
        await api.removeLabel(effect.issue, RALPH_LABELS.inProgress);
        await api.removeLabel(effect.issue, RALPH_LABELS.parked);
        return;
      }
      case 'parked':
        await api.removeLabel(effect.issue, RALPH_LABELS.inProgress);
        await api.addLabels(effect.issue, [RALPH_LABELS.parked]);
        await commentOnce(effect.issue, `parked ${effect.storyId} ${id}`, () =>
          parkComment({ ...effect, run: options.run }),
        );
        return;
      case 'question':
        await api.removeLabel(effect.issue, RALPH_LABELS.inProgress);
        await commentOnce(effect.issue, `question ${effect.storyId} ${effect.questionId}`, () =>
          questionComment({ ...effect, run: options.run }),
        );
        return;
    }
  };

  /** Posts the comment unless an earlier try (whose answer never came) already did. */
  const commentOnce = async (issue: number, marker: string, body: () => string): Promise<void> => {
    const existing = await api.listComments(issue);
    const tagged = withMarker(body(), marker);
    const tag = tagged.slice(tagged.lastIndexOf('<!--'));
    if (existing.some((c) => c.includes(tag))) return;
    await api.comment(issue, tagged);
  };

  /**
   * What a killed run owed and never recorded: a park the state holds with
   * no intent for it, and a story whose pass is on the branch but whose
   * issue was never told (killed between the landing and its event).
   * Stories already labelled done were told by an earlier run.
   */
  const reconcile = async (): Promise<void> => {
    const on = await branchNow();
    if (cwd === null || on === null) return;
    const landed = new Set(passedStoryIds(await subjectsOn(cwd, on)));
    const owed = new Set(
      outbox
        .all()
        .flatMap((i) =>
          i.owed.kind === 'github' && i.owed.effect.type === 'passed' ? [i.owed.effect.storyId] : [],
        ),
    );
    const state = await readRunState(runFiles(options.runDir).state).catch(() => null);
    // A park saved in the state whose intent a kill cut short (inside the outbox's own write).
    for (const [storyId, record] of Object.entries(state?.stories ?? {})) {
      const issue = issueNumberOf(storyId);
      if (issue === null || !record.parked || toldPark(storyId, record.attempts)) continue;
      const reason = record.lastFailure?.reason ?? 'its attempts were used up';
      owe({ type: 'parked', issue, storyId, attempts: record.attempts, reason }, new Date().toISOString());
    }
    for (const issue of await api.openIssues(options.label)) {
      const storyId = `GH-${issue.number}`;
      if (!landed.has(storyId) || owed.has(storyId) || issue.labels.includes(RALPH_LABELS.done)) continue;
      const record = state?.stories[storyId];
      owe(
        {
          type: 'passed',
          issue: issue.number,
          storyId,
          commits: await commitsNamed(cwd, record?.commits ?? []),
          branch: on,
          attempt: record?.attempts ?? 0,
          costUsd: record?.costUsd ?? 0,
        },
        new Date().toISOString(),
      );
    }
  };

  const toldPark = (storyId: string, attempts: number): boolean =>
    outbox
      .all()
      .some(
        (i) =>
          i.owed.kind === 'github' &&
          i.owed.effect.type === 'parked' &&
          i.owed.effect.storyId === storyId &&
          i.owed.effect.attempts === attempts,
      );

  const follow = (event: RunEventRecord): void => {
    switch (event.type) {
      case 'run-started': {
        cwd = event.cwd;
        const owedBefore = outbox.pending();
        later('catch up on what an earlier run owed', reconcile);
        for (const intent of owedBefore) deliverLater(intent);
        return;
      }
      case 'worktree-created':
      case 'worktree-reused':
      case 'branch-switched':
        if (!parallel) branch = event.branch;
        return;
      case 'parallel-started':
        parallel = true;
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
        owe(
          {
            type: 'passed',
            issue,
            storyId: event.storyId,
            commits: event.commits.map((c) => ({ sha: c.sha, subject: c.subject })),
            branch,
            attempt: event.attempt,
            costUsd: event.costUsd,
          },
          event.at,
        );
        return;
      }
      case 'story-parked': {
        const issue = issueNumberOf(event.storyId);
        if (issue === null) return;
        working.delete(issue);
        owe(
          { type: 'parked', issue, storyId: event.storyId, attempts: event.attempts, reason: event.reason },
          event.at,
        );
        return;
      }
      case 'question-asked': {
        const issue = event.storyId ? issueNumberOf(event.storyId) : null;
        if (issue === null || !event.storyId) return;
        working.delete(issue);
        owe(
          {
            type: 'question',
            issue,
            storyId: event.storyId,
            questionId: event.questionId,
            question: event.question,
          },
          event.at,
        );
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

const WHAT: Record<GithubEffect['type'], string> = {
  passed: 'comment on a passed issue',
  parked: 'mark an issue parked',
  question: 'post a question on an issue',
};

async function subjectsOn(cwd: string, branch: string): Promise<string[]> {
  const out = await git(['log', '--format=%s', `refs/heads/${branch}`, '--'], { cwd }).catch(() => '');
  return out.split('\n').filter(Boolean);
}

/** The newest commit on `branch` that records `storyId` as passed, or null. */
async function passCommitOn(cwd: string, branch: string, storyId: string): Promise<string | null> {
  const out = await git(['log', '--format=%H%x09%s', `refs/heads/${branch}`, '--'], { cwd }).catch(() => '');
  const subject = passCommitSubject(storyId);
  for (const line of out.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0 && line.slice(tab + 1) === subject) return line.slice(0, tab);
  }
  return null;
}

async function commitsNamed(
  cwd: string,
  shas: readonly string[],
): Promise<{ sha: string; subject: string }[]> {
  if (shas.length === 0) return [];
  const out = await git(['show', '-s', '--format=%h%x09%s', ...shas, '--'], { cwd }).catch(() => '');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, line.indexOf('\t')), subject: line.slice(line.indexOf('\t') + 1) }));
}
