import { describe, expect, it } from 'vitest';
import {
  checkAccess,
  credentialsFor,
  csrfProblem,
  hostAllowed,
  randomToken,
  sessionCookie,
  tokenProblem,
} from './auth.js';

const credentials = credentialsFor('t0ken-t0ken-t0ken-t0ken', 7257);
const url = (path: string) => new URL(path, 'http://127.0.0.1:7257');

describe('checkAccess', () => {
  it('takes the token from the URL once, then from the cookie or a bearer header', () => {
    expect(checkAccess(credentials, url('/?token=t0ken-t0ken-t0ken-t0ken&x=1'), {})).toEqual({
      kind: 'from-url',
      cleanUrl: '/?x=1',
    });
    expect(
      checkAccess(credentials, url('/'), { cookie: `a=b; ${sessionCookie(credentials).split(';')[0]}` }),
    ).toEqual({
      kind: 'ok',
    });
    expect(
      checkAccess(credentials, url('/api/project'), { authorization: 'Bearer t0ken-t0ken-t0ken-t0ken' }),
    ).toEqual({
      kind: 'ok',
    });
  });

  it('refuses no token, a wrong one, a prefix of the right one, and a wrong one in the URL beside a good cookie', () => {
    const cookie = sessionCookie(credentials).split(';')[0];
    for (const [path, headers] of [
      ['/', {}],
      ['/?token=nope', {}],
      ['/?token=t0ken-t0ken', {}],
      ['/', { cookie: 'ralph_serve_7257=nope' }],
      ['/', { cookie: 'ralph_serve_7258=t0ken-t0ken-t0ken-t0ken' }],
      ['/', { authorization: 'Basic t0ken-t0ken-t0ken-t0ken' }],
      ['/?token=nope', { cookie }],
    ] as const) {
      expect(checkAccess(credentials, url(path), headers)).toEqual({ kind: 'denied' });
    }
  });

  it('the cookie is HttpOnly, SameSite=Strict, named after the port, and holds a random session id, never the token', () => {
    const first = sessionCookie(credentials);
    const second = sessionCookie(credentials);
    expect(first).toMatch(/^ralph_serve_7257=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(first).not.toContain('t0ken');
    expect(second).not.toBe(first);
  });

  it('refuses the token itself in the cookie, and a session id another server gave', () => {
    expect(
      checkAccess(credentials, url('/'), { cookie: 'ralph_serve_7257=t0ken-t0ken-t0ken-t0ken' }),
    ).toEqual({
      kind: 'denied',
    });
    const other = credentialsFor('t0ken-t0ken-t0ken-t0ken', 7257);
    const cookie = sessionCookie(other).split(';')[0];
    expect(checkAccess(credentials, url('/'), { cookie })).toEqual({ kind: 'denied' });
  });
});

describe('hostAllowed', () => {
  it('takes the bound address or localhost, with the port', () => {
    expect(hostAllowed('127.0.0.1', 7257, '127.0.0.1:7257')).toBe(true);
    expect(hostAllowed('127.0.0.1', 7257, 'localhost:7257')).toBe(true);
    expect(hostAllowed('127.0.0.1', 7257, 'LOCALHOST:7257')).toBe(true);
    expect(hostAllowed('::1', 7257, '[::1]:7257')).toBe(true);
    expect(hostAllowed('box.lan', 7257, 'box.lan:7257')).toBe(true);
  });

  it('refuses another name (DNS rebinding), another port, and no Host at all', () => {
    expect(hostAllowed('127.0.0.1', 7257, 'evil.example:7257')).toBe(false);
    expect(hostAllowed('127.0.0.1', 7257, 'evil.example')).toBe(false);
    expect(hostAllowed('127.0.0.1', 7257, '127.0.0.1:80')).toBe(false);
    expect(hostAllowed('127.0.0.1', 7257, '127.0.0.1')).toBe(false);
    expect(hostAllowed('127.0.0.1', 7257, undefined)).toBe(false);
    expect(hostAllowed('box.lan', 7257, 'localhost.evil.example:7257')).toBe(false);
  });

  it('takes any name when bound to every address (--host 0.0.0.0): the names it is reached by are not its to know', () => {
    expect(hostAllowed('0.0.0.0', 7257, 'whatever:7257')).toBe(true);
  });
});

describe('csrfProblem', () => {
  const good = {
    host: '127.0.0.1:7257',
    origin: 'http://127.0.0.1:7257',
    'content-type': 'application/json',
    'x-ralph-csrf': credentials.csrf,
    'sec-fetch-site': 'same-origin',
  };

  it('lets the page through', () => {
    expect(csrfProblem(credentials, good)).toBeNull();
    const { origin: _o, 'sec-fetch-site': _s, ...bare } = good;
    expect(csrfProblem(credentials, bare)).toBeNull();
  });

  it('stops another site, a form post, and a request without the token', () => {
    expect(csrfProblem(credentials, { ...good, 'x-ralph-csrf': undefined })).toMatch(/CSRF/);
    expect(csrfProblem(credentials, { ...good, 'x-ralph-csrf': credentials.token })).toMatch(/CSRF/);
    expect(
      csrfProblem(credentials, { ...good, 'content-type': 'application/x-www-form-urlencoded' }),
    ).toMatch(/JSON/);
    expect(csrfProblem(credentials, { ...good, origin: 'http://evil.example' })).toMatch(/cross-origin/);
    expect(csrfProblem(credentials, { ...good, 'sec-fetch-site': 'same-site' })).toMatch(/same-site/);
  });

  it('is derived from the token, and differs from it', () => {
    expect(credentials.csrf).toMatch(/^[0-9a-f]{64}$/);
    expect(credentialsFor('another-token-another', 7257).csrf).not.toBe(credentials.csrf);
  });
});

describe('tokens', () => {
  it('random ones are long and URL-safe; a short or unsafe one from the environment is refused', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tokenProblem(token)).toBeNull();
    expect(tokenProblem('short')).toMatch(/shorter than 16/);
    expect(tokenProblem('has spaces in it, and more')).toMatch(/only letters/);
  });
});
