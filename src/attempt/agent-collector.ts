import type { AgentEvent } from '../agents/agent-event.js';
import type { AgentText } from '../core/agent-text.js';
import { jsonFences, parseGoalResult } from '../core/goal-result.js';
import { SignalScanner } from '../core/signals.js';

export interface CollectedUsage {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

/** A line that may open a ```json block; jsonFences decides. */
const MAY_OPEN_JSON = /^[ \t]*(?:`{3,}|~{3,})[ \t]*json/im;

/**
 * Folds one agent run's events into what the engine needs afterwards: its
 * signals, final words and goal result, spend, the result and any rate
 * limit. Events are forwarded as they arrive.
 *
 * Agents can write gigabytes in a run, so assistant text is not kept: each
 * text block is scanned for signals as it comes, and only the last one (the
 * final words) and the last one with a ```json block (goal mode's result)
 * are held.
 */
export function collectAgentRun(forward: (event: AgentEvent) => void) {
  const scanner = new SignalScanner();
  let lastText = '';
  let lastJsonText: string | undefined;
  let usage: CollectedUsage = { costUsd: 0, inputTokens: 0, outputTokens: 0 };
  let resultCost: number | undefined;
  let resultOk: boolean | undefined;
  let rateLimit: { message: string; resetsAt?: string } | undefined;
  const text: AgentText = {
    signals: () => scanner.result(),
    goalResult: () => parseGoalResult(lastJsonText === undefined ? [] : [lastJsonText]),
  };

  return {
    onEvent(event: AgentEvent): void {
      switch (event.type) {
        case 'assistant-text':
          scanner.add(event.text);
          lastText = event.text;
          if (MAY_OPEN_JSON.test(event.text) && jsonFences(event.text).length > 0) lastJsonText = event.text;
          break;
        case 'usage':
          // Tokens read from and written to the prompt cache are input the model took in, and paid for.
          usage = {
            costUsd: usage.costUsd + (event.costUsd ?? 0),
            inputTokens:
              usage.inputTokens +
              event.inputTokens +
              (event.cacheReadTokens ?? 0) +
              (event.cacheWriteTokens ?? 0),
            outputTokens: usage.outputTokens + event.outputTokens,
          };
          break;
        case 'result':
          resultOk = event.ok;
          if (event.costUsd !== undefined) resultCost = event.costUsd;
          break;
        case 'error':
          if (event.kind === 'rate-limit' || event.kind === 'overloaded') {
            rateLimit = { message: event.message, ...(event.resetsAt ? { resetsAt: event.resetsAt } : {}) };
          }
          break;
        default:
          break;
      }
      forward(event);
    },
    ...text,
    usage(): CollectedUsage {
      // Some CLIs report the run's cost only on the result line.
      return usage.costUsd === 0 && resultCost !== undefined ? { ...usage, costUsd: resultCost } : usage;
    },
    resultOk: (): boolean | undefined => resultOk,
    rateLimit: () => rateLimit,
    /** The agent's final words, without signal tags, for the progress file. */
    summary(): string {
      return lastText
        .replace(/<ralph>[\s\S]*?<\/ralph>/gi, '')
        .replace(/<ralph-complete\s*\/>|<promise>\s*COMPLETE\s*<\/promise>/gi, '')
        .trim()
        .slice(0, 1_000);
    },
  };
}
