import type { AgentText } from '../core/agent-text.js';
import { jsonFences, parseGoalResult } from '../core/goal-result.js';
import { SignalScanner } from '../core/signals.js';
import type { AgentEvent, ErrorEvent, RetryEvent } from './agent-event.js';

export interface CollectedUsage {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

/** How many of the CLI's errors and retries are kept for classifying the run's end. */
const KEEP = 20;

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
  const errors: ErrorEvent[] = [];
  /** The CLI's retries since the API last answered. */
  let retries: RetryEvent[] = [];
  let anyOutput = false;
  /** The agent wrote or ran something: its API answered at least once. */
  let worked = false;
  /** The last lines that were not JSON: a CLI's own words outside its stream (a login prompt). */
  let garbage: string[] = [];
  const text: AgentText = {
    signals: () => scanner.result(),
    goalResult: () => parseGoalResult(lastJsonText === undefined ? [] : [lastJsonText]),
  };

  return {
    onEvent(event: AgentEvent): void {
      anyOutput = true;
      switch (event.type) {
        case 'assistant-text':
          retries = [];
          worked = true;
          scanner.add(event.text);
          lastText = event.text;
          if (MAY_OPEN_JSON.test(event.text) && jsonFences(event.text).length > 0) lastJsonText = event.text;
          break;
        case 'tool-started':
        case 'tool-finished':
          retries = [];
          worked = true;
          break;
        case 'retry':
          retries = [...retries.slice(1 - KEEP), event];
          break;
        case 'garbage':
          garbage = [...garbage.slice(1 - 5), event.line.slice(0, 500)];
          break;
        case 'usage':
          retries = [];
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
          errors.push(event);
          if (errors.length > KEEP) errors.shift();
          // An overload is an outage, waited out and probed as one (see classifyAgentEnd).
          if (event.kind === 'rate-limit') {
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
    /** What the end of the run is classified from (see `classifyAgentEnd`). */
    end: () => ({
      errors: [...errors],
      retries: [...retries],
      resultFailed: resultOk === false,
      anyOutput,
      worked,
      garbage: [...garbage],
    }),
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

/** What one agent run's events were folded into. */
export type CollectedRun = ReturnType<typeof collectAgentRun>;
