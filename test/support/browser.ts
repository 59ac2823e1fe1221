/**
 * The system's Chromium (Debian's `chromium` package), driven by
 * playwright-core, with a fresh profile each launch and nothing that phones
 * home: what the web page's tests look at the page with.
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** `flags`: more of Chromium's switches (`--host-resolver-rules=…` to point a name at 127.0.0.1). */
export async function launchBrowser(
  viewport = { width: 1000, height: 800 },
  flags: readonly string[] = [],
): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`,
    );
  }
  const profile = await makeTempDir('chromium');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // The fresh profile is the --user-data-dir playwright passes for `profile`.
    args: [...FLAGS, ...flags],
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await removeTempDir(profile);
    },
  };
}
