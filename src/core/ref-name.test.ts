import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBranchName } from '../git/branch-name.js';
import { runGit } from '../git/git.js';
import { branchNameProblem, toRefComponent } from './ref-name.js';

/** Characters git's ref rules care about, plus ordinary ones, so random names hit every rule. */
const refChars = fc.constantFrom(
  ...'ab1-_./@{}~^:?*[]\\ \t\u007f\u0000\u00e9\u00a0\u200bLOCKlock'.split(''),
  '\ud83d\ude00',
);
const refLike = fc.array(refChars, { maxLength: 12 }).map((chars) => chars.join(''));

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ralph-refs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('branchNameProblem', () => {
  it.each(['main', 'ralph/my-prd', 'feature/US-001_x', 'v1.2', 'a]b', 'é'])('accepts %j', (name) => {
    expect(branchNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['ralph/x ', 'it contains whitespace (trailing spaces included)'],
    ['', 'it is empty'],
    ['a..b', 'it contains ".."'],
    ['x.lock', 'its part "x.lock" ends with ".lock"'],
    ['-x', 'it starts with "-"'],
    ['a\u0007b', 'it contains a control character'],
  ])('refuses %j: %s', (name, why) => {
    expect(branchNameProblem(name)).toBe(why);
  });

  it('refuses every name `ralph run` refuses (property, against git itself)', async () => {
    await fc.assert(
      fc.asyncProperty(refLike, async (name) => {
        // A NUL cannot even be passed to git: that is a refusal too.
        const git = await validateBranchName(name, dir).catch(() => ({ ok: false }));
        if (!git.ok) expect(branchNameProblem(name)).toBeDefined();
      }),
      { numRuns: 150 },
    );
  });
});

describe('toRefComponent', () => {
  it.each([
    ['US-001', 'US-001'],
    ['US..1', 'US.1'],
    ['..', '_'],
    ['.hidden', 'hidden'],
    ['a b/c', 'a_b_c'],
    ['x.lock', 'x.lock_'],
    ['', '_'],
  ])('%j -> %j', (text, ref) => {
    expect(toRefComponent(text)).toBe(ref);
  });

  it('always gives a rescue ref git accepts (property, against git itself)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(refLike, fc.string()), fc.oneof(refLike, fc.string()), async (name, id) => {
        const ref = `refs/ralph/rescue/${toRefComponent(name)}/${toRefComponent(id)}-attempt-1-2025-01-01T00-00-00-000Z`;
        const check = await runGit(['check-ref-format', ref], { cwd: dir, allowFailure: true });
        expect([ref, check.exitCode]).toEqual([ref, 0]);
      }),
      { numRuns: 150 },
    );
  });
});
