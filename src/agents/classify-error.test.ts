import { describe, expect, it } from 'vitest';
import {
  classifyErrorText,
  errorEventFromText,
  isoFromEpochSeconds,
  kindFromHttpStatus,
  resetsAtFromText,
} from './classify-error.js';

describe('classifyErrorText', () => {
  it.each([
    ["You've hit your limit · resets 5pm", 'rate-limit'],
    ["You've hit your weekly limit", 'rate-limit'],
    ['Claude AI usage limit reached|1750000000', 'rate-limit'],
    ['API Error: Request rejected (429) · slow down', 'rate-limit'],
    ['{"type":"error","error":{"type":"rate_limit_error"}}', 'rate-limit'],
    ['API Error: 529 Overloaded. This is a server-side issue', 'overloaded'],
    ['{"type":"overloaded_error","message":"Overloaded"}', 'overloaded'],
    ['Invalid API key · Please run /login', 'auth'],
    ['API Error: 401 authentication_error', 'auth'],
    ['OAuth token has expired', 'auth'],
    ['Credit balance is too low', 'auth'],
    ['API Error: 500 Internal server error', 'api'],
    ['Prompt is too long', 'api'],
    ['connect ECONNREFUSED 127.0.0.1:4000', 'api'],
    ['You’ve hit your usage limit. Try again later.', 'rate-limit'],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'rate-limit'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'overloaded'],
    ['[429 Too Many Requests] RESOURCE_EXHAUSTED', 'rate-limit'],
    ['[API Error: Resource has been exhausted (e.g. check quota).]', 'rate-limit'],
    ['Quota exceeded for quota metric generate_content_requests', 'rate-limit'],
    ['You exceeded your current quota, please check your plan', 'rate-limit'],
    ['No capacity available for model gemini-2.5-pro', 'overloaded'],
    ['Something odd happened', 'other'],
  ])('%s -> %s', (text, kind) => {
    expect(classifyErrorText(text)).toBe(kind);
  });

  it('does not read a port number as a status code', () => {
    expect(classifyErrorText('check your gateway (127.0.0.1:45290)')).toBe('other');
  });
});

describe('kindFromHttpStatus', () => {
  it.each([
    [429, 'rate-limit'],
    [529, 'overloaded'],
    [401, 'auth'],
    [403, 'auth'],
    [500, 'api'],
    [400, 'api'],
  ])('%i -> %s', (status, kind) => {
    expect(kindFromHttpStatus(status)).toBe(kind);
  });
});

describe('reset times', () => {
  it('takes the words after "resets" up to a separator', () => {
    expect(resetsAtFromText("You've hit your limit · resets 5pm (Europe/Berlin)")).toBe(
      '5pm (Europe/Berlin)',
    );
    expect(resetsAtFromText('Limit reached · resets at 3:30am · /upgrade')).toBe('3:30am');
    expect(resetsAtFromText('resets Nov 23, 5pm.')).toBe('Nov 23, 5pm');
    expect(resetsAtFromText('no reset here')).toBeUndefined();
  });

  it('reads Codex-style "try again at/in" times', () => {
    expect(resetsAtFromText("You've hit your usage limit. Upgrade to Pro or try again at 5:00 PM.")).toBe(
      '5:00 PM',
    );
    expect(resetsAtFromText('You’ve hit your usage limit. Try again in 2 days 3 hours 4 minutes.')).toBe(
      'in 2 days 3 hours 4 minutes',
    );
    expect(resetsAtFromText('Quota exceeded. Please retry in 35.2s.')).toBe('in 35.2s');
    expect(resetsAtFromText('You’ve hit your usage limit. Try again later.')).toBeUndefined();
  });

  it('converts epoch seconds and rejects nonsense', () => {
    expect(isoFromEpochSeconds(0)).toBeUndefined();
    expect(isoFromEpochSeconds(Number.NaN)).toBeUndefined();
    expect(isoFromEpochSeconds(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
  });

  it('adds resetsAt only to rate-limit errors', () => {
    expect(errorEventFromText("You've hit your limit · resets 5pm")).toEqual({
      type: 'error',
      kind: 'rate-limit',
      message: "You've hit your limit · resets 5pm",
      resetsAt: '5pm',
    });
    expect(errorEventFromText('Server resets nightly', 'api')).toEqual({
      type: 'error',
      kind: 'api',
      message: 'Server resets nightly',
    });
  });
});
