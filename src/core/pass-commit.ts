/** The subject of the commit that records a story as passed: the tool's own, on the PRD branch. */
export const passCommitSubject = (storyId: string): string => `chore(ralph): ${storyId} passed`;

const PASS_SUBJECT = /^chore\(ralph\): (.+) passed$/;

/** The stories whose pass records are among these commit subjects, in the order given. */
export function passedStoryIds(subjects: readonly string[]): string[] {
  return subjects.flatMap((s) => {
    const id = PASS_SUBJECT.exec(s)?.[1];
    return id === undefined ? [] : [id];
  });
}
