/**
 * A registry on 127.0.0.1 that serves one package tarball the way the npm
 * registry does (a packument at `/<name>`, the tarball at
 * `/<name>/-/<name>-<version>.tgz`), so `npm i -g <name>` and `npx <name>`
 * run exactly as a user types them, against the tarball `npm pack` made.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NpmRegistry {
  /** With a trailing slash, as npm's `registry` setting takes it. */
  url: string;
  /** Request paths received, in order. */
  requests(): string[];
  close(): Promise<void>;
}

export interface PackageManifest {
  name: string;
  version: string;
  [field: string]: unknown;
}

export async function startNpmRegistry(manifest: PackageManifest, tarballPath: string): Promise<NpmRegistry> {
  const tarball = await readFile(tarballPath);
  const seen: string[] = [];
  const packumentPath = `/${encodeURIComponent(manifest.name).replace(/^%40/, '@')}`;
  const tarballName = `${manifest.name.replace(/^@[^/]+\//, '')}-${manifest.version}.tgz`;
  const tarballUrlPath = `/${manifest.name}/-/${tarballName}`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://registry').pathname;
    seen.push(path);
    if (req.method === 'GET' && path === packumentPath) {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${tarballUrlPath}`;
      const packument = {
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: {
          [manifest.version]: {
            ...manifest,
            _id: `${manifest.name}@${manifest.version}`,
            dist: {
              tarball: url,
              shasum: createHash('sha1').update(tarball).digest('hex'),
              integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
            },
          },
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(packument));
      return;
    }
    if (req.method === 'GET' && path === tarballUrlPath) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      res.end(tarball);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => [...seen],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
