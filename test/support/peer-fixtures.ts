/**
 * Reads the peers' own files under test/fixtures/peers/ (see its README for
 * repository, path and commit) and pulls out the task files embedded in
 * them: Go raw strings in Chief's tests, template literals in ralph-tui's
 * tests, fenced examples in docs and skills.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PEERS = fileURLToPath(new URL('../fixtures/peers/', import.meta.url));

export const peerFile = (relPath: string): string => readFileSync(`${PEERS}${relPath}`, 'utf8');

/** Every `func TestX(t *testing.T)` of a Go test file with the raw (backtick) strings in its body, in order. */
export function goTestStrings(source: string): Map<string, string[]> {
  const tests = new Map<string, string[]>();
  const parts = source.split(/^func (Test\w+)\(t \*testing\.T\) \{$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] ?? '';
    const body = parts[i + 1] ?? '';
    tests.set(
      name,
      [...body.matchAll(/`([^`]*)`/g)].map((m) => m[1] ?? ''),
    );
  }
  return tests;
}

/** The first raw string of a Chief Go test, which is the markdown or JSON it feeds the parser. */
export function goTestInput(source: string, test: string): string {
  const input = goTestStrings(source).get(test)?.[0];
  if (input === undefined) throw new Error(`no raw string in ${test}`);
  return input;
}

/** `test('name', () => { const md = `...`` in ralph-tui's bun tests: the markdown each named test starts with. */
export function tsTestMarkdown(source: string): Map<string, string> {
  const found = new Map<string, string>();
  const re = /test\('([^']+)', \(\) => \{\s*const \w+ = `([^`]*)`;/g;
  for (const m of source.matchAll(re)) found.set(m[1] ?? '', m[2] ?? '');
  return found;
}

/** The contents of each fenced block opened with ```lang (any fence when lang is undefined). */
export function fencedBlocks(markdown: string, lang?: string): string[] {
  const blocks: string[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(re)) {
    if (lang === undefined || m[1] === lang) blocks.push(m[2] ?? '');
  }
  return blocks;
}
