import { describe, expect, it } from 'vitest';
import { logFields, opencodeStderrRetry } from './opencode-logs.js';

// Lines as OpenCode 1.18.33 wrote them (test/fixtures/agents/opencode/outside/*-logged.end.json).
const OVERLOADED =
  'timestamp=2026-11-26T07:57:49.352Z level=ERROR run=1753e0f9 message="stream error" providerID=ralph-fake modelID=m1 session.id=ses_de923b5fbffeqha7H2OJG8l58g small=false agent=build mode=primary error.error="AI_APICallError: Overloaded"';
const TITLE_GAVE_UP =
  'timestamp=2026-11-26T08:00:19.119Z level=ERROR run=2ba75c90 message="stream error" providerID=ralph-fake modelID=m1 session.id=ses_x small=true agent=title mode=primary error.error="AI_RetryError: Failed after 3 attempts. Last error: Cannot connect to API: Unable to connect. Is the computer able to access the url?"';
const PROCESS_ERROR =
  'timestamp=2026-11-26T07:56:52.342Z level=ERROR run=52848516 message=process session.id=ses_x messageID=msg_x error="Incorrect API key provided" stack="AI_APICallError: Incorrect API key provided\\n    at <anonymous> (/$bunfs/root/chunk-jrdr7d31.js:6:14272)"';

describe("OpenCode's log lines", () => {
  it('reads logfmt fields, quoted values with their escapes unquoted', () => {
    expect(logFields(PROCESS_ERROR)).toMatchObject({
      level: 'ERROR',
      message: 'process',
      error: 'Incorrect API key provided',
      stack: expect.stringMatching(/^AI_APICallError: Incorrect API key provided\n {4}at /),
    });
    expect(logFields('not a log line')).toEqual({});
  });

  it('turns each failed API request into a retry in the API’s words', () => {
    expect(opencodeStderrRetry(OVERLOADED)).toEqual({
      type: 'retry',
      attempt: 0,
      maxRetries: 0,
      reason: 'Overloaded',
    });
    expect(opencodeStderrRetry(TITLE_GAVE_UP)?.reason).toBe(
      'Failed after 3 attempts. Last error: Cannot connect to API: Unable to connect. Is the computer able to access the url?',
    );
  });

  it('passes over every other line: other errors, other levels, anything not its log', () => {
    expect(opencodeStderrRetry(PROCESS_ERROR)).toBeUndefined();
    expect(opencodeStderrRetry(OVERLOADED.replace('level=ERROR', 'level=INFO'))).toBeUndefined();
    expect(opencodeStderrRetry('message="stream error"')).toBeUndefined();
    expect(opencodeStderrRetry('Error: something went wrong')).toBeUndefined();
    expect(opencodeStderrRetry('')).toBeUndefined();
  });
});
