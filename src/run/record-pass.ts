import { passCommitSubject } from '../core/pass-commit.js';
import type { Story } from '../core/types.js';
import { type CommitInfo, commitChanges, filesChangedSince } from '../git/index.js';
import { faultPoint } from '../state/fault-point.js';
import { addPatterns, appendEntry, readProgress, updateProgress } from '../state/progress.js';
import type { RunState } from '../state/run-state.js';
import { markPassed } from '../state/run-state-update.js';
import type { RunContext } from './run-context.js';
import { saveState } from './state-io.js';
import { toolPaths } from './tool-files.js';

export interface PassRecord {
  story: Story;
  headBefore: string;
  commits: CommitInfo[];
  summary: string;
  learnings: string[];
}

/**
 * Records a verified pass: the task file and progress file are updated and
 * committed by the tool, then the run state. The state first notes that the
 * pass is being recorded, so a run killed in between completes the record on
 * resume instead of redoing the story.
 */
export async function recordPass(ctx: RunContext, state: RunState, pass: PassRecord): Promise<RunState> {
  let next: RunState = state.current
    ? {
        ...state,
        current: { ...state.current, phase: 'recording', passCommits: pass.commits.map((c) => c.sha) },
      }
    : state;
  await saveState(ctx, next);
  faultPoint('pass-recording');
  await writePassFiles(ctx, pass);
  faultPoint('pass-committed');
  next = markPassed(next, pass.story.id, { commits: pass.commits.map((c) => c.sha), now: ctx.now() });
  await saveState(ctx, next);
  return next;
}

/** Idempotent, so recovery can run it again after a crash part-way through. */
export async function writePassFiles(ctx: RunContext, pass: PassRecord): Promise<void> {
  // git lists the story's files while the task file is written.
  const changed = filesChangedSince(ctx.cwd, pass.headBefore);
  // A failure surfaces where it is awaited, not as an unhandled rejection meanwhile.
  changed.catch(() => undefined);
  await ctx.source.setStatus(pass.story.id, 'done');
  const existing = await readProgress(ctx.progressPath);
  if (!existing.includes(` - ${pass.story.id}: `)) {
    const filesChanged = await changed;
    await updateProgress(ctx.progressPath, (text) =>
      appendEntry(addPatterns(text, pass.learnings), {
        date: ctx.now().toISOString().slice(0, 16).replace('T', ' '),
        storyId: pass.story.id,
        title: pass.story.title,
        summary: pass.summary,
        filesChanged,
        learnings: pass.learnings,
      }),
    );
  }
  await commitChanges(ctx.cwd, toolPaths(ctx), passCommitSubject(pass.story.id));
}
