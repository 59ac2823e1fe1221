import type { AgentEvent } from '../agents/agent-event.js';

export interface CollectedUsage {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Folds one agent run's events into what the engine needs afterwards: the
 * assistant text (the only place signals are read from), spend, the result
 * and any rate limit. Events are forwarded as they arrive.
 */
export function collectAgentRun(forward: (event: AgentEvent) => void) {
  const texts: string[] = [];
  let usage: CollectedUsage = { costUsd: 0, inputTokens: 0, outputTokens: 0 };
  let resultCost: number | undefined;
  let resultOk: boolean | undefined;
  let rateLimit: { message: string; resetsAt?: string } | undefined;

  return {
    texts,
    onEvent(event: AgentEvent): void {
      switch (event.type) {
        case 'assistant-text':
          texts.push(event.text);
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
    usage(): CollectedUsage {
      // Some CLIs report the run's cost only on the result line.
      return usage.costUsd === 0 && resultCost !== undefined ? { ...usage, costUsd: resultCost } : usage;
    },
    resultOk: (): boolean | undefined => resultOk,
    rateLimit: () => rateLimit,
    /** The agent's final words, without signal tags, for the progress file. */
    summary(): string {
      const last = texts.at(-1) ?? '';
      return last
        .replace(/<ralph>[\s\S]*?<\/ralph>/gi, '')
        .replace(/<ralph-complete\s*\/>|<promise>\s*COMPLETE\s*<\/promise>/gi, '')
        .trim()
        .slice(0, 1_000);
    },
  };
}
