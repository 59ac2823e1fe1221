/** Reading recorded agent streams (test/fixtures/agents/<agent>/<name>.jsonl) and parsing them. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StreamParser } from '../../src/agents/adapter.js';
import type { AgentEvent } from '../../src/agents/agent-event.js';

export function fixtureLines(agent: string, name: string): string[] {
  const path = fileURLToPath(new URL(`../fixtures/agents/${agent}/${name}.jsonl`, import.meta.url));
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

export const parseLines = (parser: StreamParser, lines: readonly string[]): AgentEvent[] =>
  lines.flatMap((line) => parser.parseLine(line));

export const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
