/**
 * GitHub issues as a task source: read fresh from the API at every read (a
 * run reads before each iteration, so an issue labelled meanwhile joins), and
 * a story's status written back as labels, never into the issue's body.
 * A pass is not written here: its record is the pass commit on the run's
 * branch (run/git-truth-source.ts reads it), and `ralph:done` with its
 * comment is told after the landing, from the run's outbox
 * (app/github-write-back.ts).
 */
import { RALPH_LABELS } from '../core/github-comments.js';
import type { StoryStatus } from '../core/types.js';
import type { IssuesApi } from '../github/issues-api.js';
import { issueNumberOf, issuesAddress, readIssues } from './github-issues.js';
import { UnknownStoryError } from './source-errors.js';
import type { ReadResult, TaskSource } from './task-source.js';
import { withGraphIssues } from './with-graph-issues.js';

export function githubTaskSource(api: IssuesApi, label: string): TaskSource {
  const { repo } = api.client;
  const address = issuesAddress(repo, label);
  return {
    format: 'github',
    path: address,
    remote: true,
    async read(): Promise<ReadResult> {
      const issues = await api.openIssues(label);
      return withGraphIssues(readIssues(issues, { repo, label, address }));
    },
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const issue = issueNumberOf(storyId);
      if (issue === null) throw new UnknownStoryError(storyId, address);
      switch (status) {
        case 'done':
          // Git first: the label is an effect of the landing, delivered once the branch holds it.
          return;
        case 'in-progress':
          await api.addLabels(issue, [RALPH_LABELS.inProgress]);
          return;
        case 'todo':
          await api.removeLabel(issue, RALPH_LABELS.done);
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
          return;
      }
    },
  };
}
