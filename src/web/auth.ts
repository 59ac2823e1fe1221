/**
 * Who may use the page: whoever has the token `ralph serve` printed. The
 * first visit brings it in the URL; it then lives in an HttpOnly cookie (and
 * the URL loses it). A request that changes something also carries the
 * page's CSRF token in a header, is JSON, and comes from the page's own
 * origin, so another site open in the same browser cannot post to it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { CSRF_HEADER } from './view.js';

/** A token given in RALPH_SERVE_TOKEN must be at least this long, in URL-safe characters. */
export const MIN_TOKEN_LENGTH = 16;
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]+$/;

export interface Credentials {
  token: string;
  /** Derived from the token: the page gets it inside the HTML, which only the token opens. */
  csrf: string;
  /** Per port: two servers on one host must not take each other's cookie. */
  cookieName: string;
}

export const randomToken = (): string => randomBytes(24).toString('base64url');

/** Why a token from the environment cannot be used, or null when it can. */
export function tokenProblem(token: string): string | null {
  if (token.length < MIN_TOKEN_LENGTH) return `it is shorter than ${MIN_TOKEN_LENGTH} characters`;
  if (!TOKEN_PATTERN.test(token)) return 'it may hold only letters, digits and . _ ~ -';
  return null;
}

export function credentialsFor(token: string, port: number): Credentials {
  return {
    token,
    csrf: createHmac('sha256', token).update('ralph serve csrf').digest('hex'),
    cookieName: `ralph_serve_${port}`,
  };
}

/** Compares secrets in constant time, whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export type Access =
  /** The cookie or an `Authorization: Bearer` header holds the token. */
  | { kind: 'ok' }
  /** The URL holds the token: set the cookie and send the browser to the same place without it. */
  | { kind: 'from-url'; cleanUrl: string }
  | { kind: 'denied' };

export function checkAccess(credentials: Credentials, url: URL, headers: IncomingHttpHeaders): Access {
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null) {
    // A wrong token in the URL is refused even beside a good cookie: the URL says who is asking.
    if (!sameSecret(fromUrl, credentials.token)) return { kind: 'denied' };
    const clean = new URL(url);
    clean.searchParams.delete('token');
    return { kind: 'from-url', cleanUrl: `${clean.pathname}${clean.search}` };
  }
  const bearer = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
  const cookie = cookieValue(headers.cookie, credentials.cookieName);
  const given = bearer ?? cookie;
  return given !== undefined && sameSecret(given, credentials.token) ? { kind: 'ok' } : { kind: 'denied' };
}

export function sessionCookie(credentials: Credentials): string {
  return `${credentials.cookieName}=${credentials.token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Why a state-changing request is refused, or null when it may go on. */
export function csrfProblem(credentials: Credentials, headers: IncomingHttpHeaders): string | null {
  const sent = headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sameSecret(sent, credentials.csrf)) return 'missing or wrong CSRF token';
  if (!/^application\/json\b/i.test(headers['content-type'] ?? '')) return 'the body must be JSON';
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host ?? ''}`)
    return `cross-origin request from ${origin}`;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `a ${site} request`;
  return null;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
