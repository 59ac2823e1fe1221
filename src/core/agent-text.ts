import { type GoalResultParse, parseGoalResult } from './goal-result.js';
import { parseSignals, type Signals } from './signals.js';

/**
 * What an attempt's shape reads from the agent's own assistant text. The
 * agent collector reads it as the text streams, without keeping the text;
 * `agentText` reads it from texts at hand.
 */
export interface AgentText {
  /** Every signal, in order. */
  signals(): Signals;
  /** Goal mode's JSON result block, from the last text that has one. */
  goalResult(): GoalResultParse;
}

export const agentText = (texts: readonly string[]): AgentText => ({
  signals: () => parseSignals(texts),
  goalResult: () => parseGoalResult(texts),
});
