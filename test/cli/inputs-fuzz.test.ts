/**
 * Fuzz of the four input kinds (prd.json, prd.md, spec files, config.yaml)
 * through the built CLI: `ralph validate`, `ralph status` and `ralph run
 * --dry-run` must exit 0 or 2, say where the problem is on 2, never print a
 * stack, never change a byte of the project, and finish within a generous
 * bound (a bound, not a benchmark: the figures are in bench/).
 *
 * The default run fits in CI (about a minute on two idle cores); set
 * RALPH_FUZZ_RUNS (random cases per kind, default 4) for a longer one,
 * RALPH_FUZZ_SEED to replay one, RALPH_FUZZ_BOUND_MS to change the bound.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configCase, prdJsonCase, prdMdCase, specDirCase } from '../support/fuzz-inputs.js';
import { type FuzzCase, fixedCases } from '../support/fuzz-worst-cases.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';

const RUNS = Number(process.env.RALPH_FUZZ_RUNS ?? 4);
// Generous: a busy machine takes seconds to start the CLI; quadratic reading took minutes on the worst cases.
const BOUND_MS = Number(process.env.RALPH_FUZZ_BOUND_MS ?? 60_000);
const SEED = process.env.RALPH_FUZZ_SEED === undefined ? undefined : Number(process.env.RALPH_FUZZ_SEED);

let repo: GitFixture;
beforeAll(async () => {
  repo = await createGitFixture({ files: { 'README.md': '# fuzz\n' } });
});
afterAll(async () => {
  await repo?.cleanup();
});

/** Every file of the project but .git, as bytes. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const rel = relative(dir, full);
    if (!entry.isFile() || rel === '.git' || rel.startsWith(`.git/`)) continue;
    files.set(rel, await readFile(full));
  }
  return files;
}

/** A stack trace, or an engine message no person should have to decode. */
const STACK =
  /unexpected error|\n\s+at \S+ \(|\n\s+at file:|RangeError|ReferenceError|TypeError|SyntaxError|Maximum call stack/;

/** `file:line:column: message`, `<target>: message` for a directory, or the usage error for an unusable name. */
function hasLocation(stderr: string, c: FuzzCase): boolean {
  if (/^[^\s:][^:\n]*:\d+:\d+: \S/m.test(stderr)) return true;
  if (stderr.split('\n').some((line) => line.startsWith(`${c.target}: `))) return true;
  return /^ralph: The target .* is too long to be a PRD name or a path\.$/m.test(stderr);
}

async function check(c: FuzzCase, commands: string[][]): Promise<void> {
  for (const [path, text] of Object.entries(c.files)) {
    await mkdir(dirname(join(repo.dir, path)), { recursive: true });
    await writeFile(join(repo.dir, path), text);
  }
  try {
    const before = await snapshot(repo.dir);
    const results = await Promise.all(
      commands.map((command) => runRalph([...command, c.target], { cwd: repo.dir, timeoutMs: BOUND_MS })),
    );
    for (const [i, result] of results.entries()) {
      const command = commands[i] ?? [];
      const what = `${c.name}: ralph ${command.join(' ')} (exit ${result.exitCode}, signal ${result.signal})\n${result.stderr.slice(0, 2000)}`;
      expect(result.signal, `${what}\n(took longer than ${BOUND_MS} ms)`).toBeNull();
      expect([0, 2], what).toContain(result.exitCode);
      expect(STACK.test(result.stderr) || STACK.test(result.stdout), what).toBe(false);
      if (result.exitCode === 2) expect(hasLocation(result.stderr, c), what).toBe(true);
    }
    const after = await snapshot(repo.dir);
    expect([...after.keys()].sort(), `${c.name}: files added or removed`).toEqual([...before.keys()].sort());
    for (const [path, bytes] of before) {
      expect(after.get(path)?.equals(bytes), `${c.name}: ${path} changed`).toBe(true);
    }
  } finally {
    for (const path of Object.keys(c.files)) await rm(join(repo.dir, path), { force: true });
    await rm(join(repo.dir, 'specs'), { recursive: true, force: true });
    await rm(join(repo.dir, '.ralph'), { recursive: true, force: true });
  }
}

/** The worst cases go through every reading command; random ones through validate and status. */
const EVERY = [['validate'], ['status'], ['run', '--dry-run']];
const READING = [['validate'], ['status']];
/** Per test: every command of every case may take the whole bound. */
const timeout = (cases: number) => cases * BOUND_MS + 30_000;
const params = { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) };

describe('input fuzz through the CLI: exit 0 or 2 with a location, no stack, no byte changed, within the bound', () => {
  it.each(fixedCases().map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      await check(c, EVERY);
    },
    timeout(1),
  );

  it.each([
    ['prd.json', prdJsonCase],
    ['prd.md', prdMdCase],
    ['spec files', specDirCase],
    ['config.yaml', configCase],
  ] as const)(
    'random %s',
    async (_kind, arbitrary) => {
      await fc.assert(
        fc.asyncProperty(arbitrary, (c) => check(c, READING)),
        params,
      );
    },
    timeout(RUNS),
  );
});
