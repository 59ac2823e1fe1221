import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBranchName } from './branch-name.js';

describe('validateBranchName', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ralph-branch-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['main', 'ralph/my-prd', 'feature/US-001_x', 'v1.2'])('accepts %s', async (name) => {
    expect(await validateBranchName(name, dir)).toEqual({ ok: true });
  });

  it.each([
    '',
    ' ',
    '-rf',
    '--force',
    '@',
    '@{-1}',
    'HEAD',
    'a..b',
    'a b',
    'x.lock',
    'trailing/',
    'a~1',
    'a^',
    'a:b',
    'a\\b',
    'we?ird',
  ])('refuses %j', async (name) => {
    const result = await validateBranchName(name, dir);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).not.toBe('');
  });
});
