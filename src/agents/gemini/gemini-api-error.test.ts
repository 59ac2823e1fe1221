/** Gemini CLI's API errors, as recorded from the real CLI (test/fixtures/agents/gemini/outside/), in a person's words. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureLines, ofType, parseLines } from '../../../test/support/fixture-lines.js';
import { causeOfRetry, causeOfText } from '../classify-end.js';
import { apiErrorMessage, apiErrorWords } from './gemini-api-error.js';
import { createGeminiParser, geminiStderrRetry } from './gemini-parser.js';

const OUTSIDE = fileURLToPath(new URL('../../../test/fixtures/agents/gemini/outside/', import.meta.url));
const stderrOf = (name: string): string[] =>
  (JSON.parse(readFileSync(`${OUTSIDE}${name}.end.json`, 'utf8')) as { stderr: string }).stderr.split('\n');

describe("Gemini CLI's API errors", () => {
  it('shows the API message of a refused key with its code and status, still read as a refused login', () => {
    for (const [name, words] of [
      ['auth-401', '[API Error: Request had invalid authentication credentials. (401 UNAUTHENTICATED)]'],
      ['forbidden-403', '[API Error: The caller does not have permission (403 PERMISSION_DENIED)]'],
      [
        'key-invalid-400',
        '[API Error: API key not valid. Please pass a valid API key. (400 INVALID_ARGUMENT)]',
      ],
    ] as const) {
      const errors = ofType(
        parseLines(createGeminiParser(), fixtureLines('gemini', `outside/${name}`)),
        'error',
      );
      expect(errors.map((e) => e.message)).toEqual([words]);
      expect(causeOfText(words), name).toBe('auth');
    }
  });

  it("reads a retry's reason as the API's message, and Google's overloaded 503 as an overload", () => {
    const retries = stderrOf('overloaded-503').flatMap((line) => geminiStderrRetry(line) ?? []);
    expect(retries.length).toBeGreaterThan(0);
    for (const retry of retries) {
      expect(retry).toMatchObject({
        status: 503,
        reason: 'The model is overloaded. Please try again later.',
      });
      expect(causeOfRetry(retry)).toBe('overloaded');
    }
  });

  it('leaves words without an API body, and bodies it cannot read, as they are', () => {
    const unreachable = '[API Error: exception TypeError: fetch failed sending request]';
    expect(apiErrorWords(unreachable)).toBe(unreachable);
    expect(apiErrorMessage('Error: exception TypeError: fetch failed sending request')).toBe(
      'Error: exception TypeError: fetch failed sending request',
    );
    expect(apiErrorWords('[API Error: {"error":{"code":500}}]')).toBe('[API Error: {"error":{"code":500}}]');
    expect(apiErrorWords('[API Error: {"error":{"message":"x"]')).toBe(
      '[API Error: {"error":{"message":"x"]',
    );
  });
});
