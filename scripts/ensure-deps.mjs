#!/usr/bin/env node
// Installs the dependencies when they are missing or stale, so `npm test` and
// `npm run demo` work on a fresh clone with nothing run before them. Stale:
// package-lock.json changed since the last install, or package.json declares
// dependencies that package-lock.json does not record (an edited script alone
// does not count). Uses nothing but Node itself: it runs before node_modules exists.
//
// It installs with `npm install --no-save`: the versions package-lock.json
// records, without writing package-lock.json or package.json (a plain `npm
// install` rewrites the lock whenever this npm or this registry lays it out
// differently). Not `npm ci`: it refuses a lock that lacks some platform's
// optional packages (opencode-ai's, which the registry the lock was written
// against does not serve), where this installs what the platform needs. A
// lock file that lacks what package.json declares is the change of whoever
// edited package.json: it says so and leaves `npm install` to them.
//   node scripts/ensure-deps.mjs          install if needed
//   node scripts/ensure-deps.mjs --check  exit 1 if an install is needed, install nothing
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm writes this at the end of every install: its age is the age of node_modules.
const installed = path.join(root, 'node_modules', '.package-lock.json');
const manifest = path.join(root, 'package.json');
const lockfile = path.join(root, 'package-lock.json');
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** A dependency map in a stable form: key order does not matter. */
const canonical = (map) => JSON.stringify(Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Dependency fields where package.json and package-lock.json disagree. */
function unlocked() {
  const declared = readJson(manifest);
  const locked = readJson(lockfile)?.packages?.[''];
  if (!declared || !locked) return null;
  return DEPENDENCY_FIELDS.filter((f) => canonical(declared[f]) !== canonical(locked[f]));
}

/** Why an install is needed, or null when node_modules is up to date. */
export function staleness() {
  const at = mtime(installed);
  if (at === null) return 'node_modules is missing';
  if ((mtime(lockfile) ?? 0) > at) return 'package-lock.json changed since the last install';
  const differs = unlocked();
  if (differs === null) return 'package.json or package-lock.json could not be read';
  return differs.length > 0 ? `package.json changed its ${differs.join(', ')} since the last install` : null;
}

function install() {
  // Under `npm run`, npm_execpath is the npm that is running us: use the same one.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const result = spawnSync(command, [...args, 'install', '--no-save', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`ensure-deps: npm install failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(result.status || 1);
  }
  // Mark the install as newer than the lock file, whatever the file system's clock granularity.
  const now = new Date();
  utimesSync(installed, now, now);
}

/** How to bring node_modules up to date: installing what the lock file records, if it records package.json's dependencies. */
function remedy() {
  const differs = unlocked();
  if (differs !== null && differs.length === 0) return { locked: true, advice: 'npm install --no-save' };
  const what =
    differs === null
      ? 'package.json or package-lock.json could not be read'
      : `package.json declares ${differs.join(', ')} that package-lock.json does not record`;
  return { locked: false, advice: `npm install (${what}: updating the lock file is your change to commit)` };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const reason = staleness();
  if (reason) {
    const { locked, advice } = remedy();
    if (process.argv.includes('--check') || !locked) {
      console.error(`ensure-deps: ${reason}; run: ${advice}`);
      process.exit(1);
    }
    console.error(`ensure-deps: ${reason}; running npm install --no-save`);
    install();
  }
}
