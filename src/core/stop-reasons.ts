/** Why a run ended. A story run ends with the first nine, a goal run with those it shares and the last three. */
export const STOP_REASONS = [
  'all-done',
  'blocked',
  'max-iterations',
  'max-cost',
  'interrupted',
  'story-not-found',
  'agent-unusable',
  // Only stories waiting for answers (and stories that depend on them) are left.
  'questions',
  /** An API outage lasted longer than `--outage-wait`. */
  'outage-wait',
  'goal-complete',
  'needs-human',
  'failures',
] as const;
export type AnyStopReason = (typeof STOP_REASONS)[number];
export type StopReason = Exclude<AnyStopReason, 'goal-complete' | 'needs-human' | 'failures'>;
export type GoalStopReason = Extract<
  AnyStopReason,
  | 'goal-complete'
  | 'needs-human'
  | 'failures'
  | 'max-iterations'
  | 'max-cost'
  | 'interrupted'
  | 'agent-unusable'
  | 'outage-wait'
>;
