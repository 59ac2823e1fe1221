/**
 * Attacks 10 and 11 on `ralph serve`, through the system's Chromium:
 * - 10: cookies are not kept per port, so every other server on 127.0.0.1
 *   the browser visits is sent the page's cookie. It holds a session id of
 *   this server's, never the token (which opens every later server started
 *   with the same RALPH_SERVE_TOKEN, and is the bearer for scripts).
 * - 11: a name an attacker controls, resolved to 127.0.0.1 (DNS rebinding),
 *   reaches the server; its `Host` is refused before anything else, even
 *   with the right token.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../support/browser.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

let repo: GitFixture | undefined;
let serves: ServeProcess[] = [];
let browser: Browser | undefined;
let other: Server | undefined;
afterEach(async () => {
  await browser?.close();
  for (const s of serves) await s.stop();
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  await repo?.cleanup();
  browser = repo = other = undefined;
  serves = [];
});

const TOKEN = 'box-serve-token-0123456789';

async function serveProject(): Promise<ServeProcess> {
  repo ??= await createGitFixture({
    files: { '.ralph/prds/demo/prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
  });
  const serve = await startServe(repo.dir, {
    env: { ...process.env, RALPH_SERVE_TOKEN: TOKEN },
    args: ['--port', '0'],
  });
  serves.push(serve);
  return serve;
}

/** Another local server, as any dev server on the machine: records the Cookie headers it is sent. */
async function otherLocalServer(): Promise<{ origin: string; cookies: string[] }> {
  const cookies: string[] = [];
  other = createServer((req, res) => {
    cookies.push(req.headers.cookie ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>another local app</p>');
  });
  await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, cookies };
}

/** A GET with the `Host` header as given (fetch will not let one set it). */
function getWithHost(origin: string, path: string, host: string, headers = {}): Promise<number> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ralph serve against a hostile neighbourhood', () => {
  it('10: another server on 127.0.0.1 is sent the cookie, but the cookie is a session id, not the token; it dies with the server', async () => {
    const serve = await serveProject();
    const local = await otherLocalServer();
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await page.goto(serve.url);
    expect(page.url()).toBe(`${serve.origin}/`);
    await expect.poll(() => page.locator('table.items tbody tr').count()).toBe(1);

    await page.goto(`${local.origin}/`);
    const sent = local.cookies.join('\n');
    // The channel is real: the page's cookie travels to the other port.
    expect(sent).toMatch(/ralph_serve_\d+=/);
    expect(sent).not.toContain(TOKEN);
    const session = /ralph_serve_\d+=([^;\s]+)/.exec(sent)?.[1] ?? '';
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // What the other server learnt opens nothing once this server is gone, though the token stays the same.
    await serve.stop();
    const next = await serveProject();
    const cookieName = `ralph_serve_${new URL(next.origin).port}`;
    const host = new URL(next.origin).host;
    expect(await getWithHost(next.origin, '/api/project', host, { cookie: `${cookieName}=${session}` })).toBe(
      401,
    );
    expect(await getWithHost(next.origin, '/api/project', host, { authorization: `Bearer ${TOKEN}` })).toBe(
      200,
    );
  });

  it('11: a rebound name pointing at 127.0.0.1 is refused by its Host, even with the token; localhost is taken', async () => {
    const serve = await serveProject();
    const port = new URL(serve.origin).port;
    browser = await launchBrowser(undefined, ['--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1']);
    const page = await browser.context.newPage();
    const refused = await page.goto(`http://rebind.attacker.test:${port}/?token=${TOKEN}`);
    expect(refused?.status()).toBe(421);
    expect(await page.textContent('body')).toContain('not known by that name');

    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(await getWithHost(serve.origin, '/api/project', `rebind.attacker.test:${port}`, bearer)).toBe(421);
    expect(await getWithHost(serve.origin, '/api/project', `127.0.0.1:${port}`, bearer)).toBe(200);
    expect(await getWithHost(serve.origin, '/api/project', `localhost:${port}`, bearer)).toBe(200);

    const viaLocalhost = await page.goto(`http://localhost:${port}/?token=${TOKEN}`);
    expect(viaLocalhost?.status()).toBe(200);
    expect(page.url()).toBe(`http://localhost:${port}/`);
  });
});
