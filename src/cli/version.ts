import { readFileSync } from 'node:fs';

/** Set by the bundler (scripts/bundle.mjs); the module tree that `tsc` emits reads package.json instead. */
declare const RALPH_BUNDLED_VERSION: string | undefined;

function readVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    if (pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string')
      return pkg.version;
  } catch {
    // A broken install still runs; the version is informational.
  }
  return '0.0.0';
}

export const VERSION = typeof RALPH_BUNDLED_VERSION === 'string' ? RALPH_BUNDLED_VERSION : readVersion();
