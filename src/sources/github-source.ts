/**
 * GitHub issues as a task source: read fresh from the API at every read (a
 * run reads before each iteration, so an issue labelled meanwhile joins), and
 * a story's status written back as labels, never into the issue's body.
 * The rest of the write-back (comments, `ralph:parked`) follows the run's
 * events (app/github-write-back.ts).
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
  // Stories passed by this process: the list GitHub answers with may not show a label added a moment ago.
  const passedHere = new Set<string>();
  return {
    format: 'github',
    path: address,
    remote: true,
    async read(): Promise<ReadResult> {
      const issues = await api.openIssues(label);
      return withGraphIssues(readIssues(issues, { repo, label, address }, passedHere));
    },
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const issue = issueNumberOf(storyId);
      if (issue === null) throw new UnknownStoryError(storyId, address);
      switch (status) {
        case 'done':
          await api.addLabels(issue, [RALPH_LABELS.done]);
          passedHere.add(storyId);
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
          await api.removeLabel(issue, RALPH_LABELS.parked);
          return;
        case 'in-progress':
          await api.addLabels(issue, [RALPH_LABELS.inProgress]);
          return;
        case 'todo':
          passedHere.delete(storyId);
          await api.removeLabel(issue, RALPH_LABELS.done);
          await api.removeLabel(issue, RALPH_LABELS.inProgress);
          return;
      }
    },
  };
}
