/**
 * An agent's assistant text from texts at hand, read as the attempt kernel's
 * collector reads it as it streams: through the one `SignalScanner`.
 */
import type { AgentText } from '../../src/core/agent-text.js';
import { parseGoalResult } from '../../src/core/goal-result.js';
import { SignalScanner, type Signals } from '../../src/core/signals.js';

/** Every signal in the agent's assistant text (one string, or its text blocks in order). */
export function parseSignals(text: string | readonly string[]): Signals {
  const scanner = new SignalScanner();
  for (const block of typeof text === 'string' ? [text] : text) scanner.add(block);
  return scanner.result();
}

export const agentText = (texts: readonly string[]): AgentText => ({
  signals: () => parseSignals(texts),
  goalResult: () => parseGoalResult(texts),
});
