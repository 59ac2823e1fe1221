/**
 * Who may use the page: whoever has the token `ralph serve` printed. The
 * first visit brings it in the URL; the browser then holds an HttpOnly cookie
 * with a random session id — never the token, since cookies are not kept
 * per port and any other server on the same host would be sent it — and the
 * URL loses the token. Requests must name this server in their `Host`
 * (the address it is bound to, or `localhost`), so a page on another name
 * that resolves here (DNS rebinding) is refused before anything else. A request that changes something also carries the
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
  /** The sessions handed out, by the SHA-256 of their id: what a cookie must hold. */
  sessions: Set<string>;
}

/** Past this many sessions the oldest is forgotten (its browser asks for the token again). */
const MAX_SESSIONS = 1000;

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
    sessions: new Set(),
  };
}

const sessionKey = (id: string): string => createHash('sha256').update(id).digest('hex');

/** Compares secrets in constant time, whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export type Access =
  /** The cookie holds a session this server gave, or an `Authorization: Bearer` header holds the token. */
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
  if (bearer !== undefined)
    return sameSecret(bearer, credentials.token) ? { kind: 'ok' } : { kind: 'denied' };
  const cookie = cookieValue(headers.cookie, credentials.cookieName);
  return cookie !== undefined && credentials.sessions.has(sessionKey(cookie))
    ? { kind: 'ok' }
    : { kind: 'denied' };
}

/** A new session's cookie: a random id, remembered here; the token never leaves for the browser. */
export function sessionCookie(credentials: Credentials): string {
  const id = randomBytes(32).toString('base64url');
  credentials.sessions.add(sessionKey(id));
  if (credentials.sessions.size > MAX_SESSIONS) {
    const oldest = credentials.sessions.values().next().value;
    if (oldest !== undefined) credentials.sessions.delete(oldest);
  }
  return `${credentials.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The addresses a server on any address answers on: no name to check the `Host` against. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Whether the request's `Host` names this server: the address it is bound
 * to (as `--host` gave it), or `localhost`, with its port. A server bound to
 * any address (`--host 0.0.0.0`) is reached by names it cannot know, so
 * there any `Host` is taken.
 */
export function hostAllowed(bound: string, port: number, host: string | undefined): boolean {
  if (ANY_ADDRESS.has(bound)) return true;
  if (host === undefined) return false;
  const name = bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound;
  return [name, 'localhost'].some((n) => host.toLowerCase() === `${n.toLowerCase()}:${port}`);
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
