import type { GoalResultParse } from './goal-result.js';
import type { Signals } from './signals.js';

/**
 * What an attempt's shape reads from the agent's own assistant text. The
 * agent collector reads it as the text streams, without keeping the text.
 */
export interface AgentText {
  /** Every signal, in order. */
  signals(): Signals;
  /** Goal mode's JSON result block, from the last text that has one. */
  goalResult(): GoalResultParse;
}
