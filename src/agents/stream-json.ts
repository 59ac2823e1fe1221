/** What every JSON-lines stream parser shares: one JSON value per line, anything else is garbage. */
import type { StreamParser } from './adapter.js';
import type { AgentEvent } from './agent-event.js';

export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false };
  }
}

/** The `type` field of a JSON object, if it is a string. */
export function typeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('type' in value)) return undefined;
  return typeof value.type === 'string' ? value.type : undefined;
}

/** A parser from a function of one parsed line: blank lines are skipped, non-JSON becomes `garbage`. */
export function jsonLineParser(parseValue: (raw: unknown) => AgentEvent[]): StreamParser {
  return {
    parseLine(line: string): AgentEvent[] {
      const trimmed = line.trim();
      if (trimmed === '') return [];
      const parsed = parseJsonLine(trimmed);
      return parsed.ok ? parseValue(parsed.value) : [{ type: 'garbage', line }];
    },
  };
}
