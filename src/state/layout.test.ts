import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import {
  archiveEntryDir,
  configPath,
  isValidPrdName,
  iterationLogPath,
  prdPaths,
  rootOfRalphWorktree,
  runPaths,
  sanitizeName,
  validatePrdName,
  worktreeDir,
} from './layout.js';

const root = path.join(path.sep, 'project');

describe('PRD names', () => {
  it.each(['main', 'auth-v2', 'a.b_c-1', '..x', 'x'.repeat(100)])('accepts %j', (name) => {
    expect(validatePrdName(name)).toBe(name);
  });

  it.each(['', '.', '..', 'a/b', '../etc', 'a\\b', 'with space', 'ü', 'x'.repeat(101)])(
    'rejects %j',
    (name) => {
      expect(() => validatePrdName(name)).toThrow(UsageError);
    },
  );

  it('refuses to build paths from names that would escape .ralph', () => {
    expect(() => prdPaths(root, '..')).toThrow(UsageError);
    expect(() => runPaths(root, '../../etc')).toThrow(UsageError);
    expect(() => worktreeDir(root, 'a/../../b')).toThrow(UsageError);
  });

  it('sanitizes any text into a valid name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        expect(isValidPrdName(sanitizeName(raw))).toBe(true);
      }),
    );
    expect(sanitizeName('my app/prd v2')).toBe('my-app-prd-v2');
    expect(sanitizeName('..')).toBe('prd');
    expect(sanitizeName('')).toBe('prd');
    expect(sanitizeName('.hidden')).toBe('hidden');
  });
});

describe('paths', () => {
  it('lays out .ralph as the design says', () => {
    expect(configPath(root)).toBe(path.join(root, '.ralph', 'config.yaml'));
    expect(prdPaths(root, 'main')).toEqual({
      dir: path.join(root, '.ralph/prds/main'),
      md: path.join(root, '.ralph/prds/main/prd.md'),
      json: path.join(root, '.ralph/prds/main/prd.json'),
      progress: path.join(root, '.ralph/prds/main/progress.md'),
    });
    const run = runPaths(root, 'main');
    expect(run).toEqual({
      dir: path.join(root, '.ralph/runs/main'),
      state: path.join(root, '.ralph/runs/main/state.json'),
      events: path.join(root, '.ralph/runs/main/events.jsonl'),
      iterationsDir: path.join(root, '.ralph/runs/main/iterations'),
      lock: path.join(root, '.ralph/runs/main/lock'),
      log: path.join(root, '.ralph/runs/main/ralph.log'),
      outbox: path.join(root, '.ralph/runs/main/outbox.json'),
    });
    expect(iterationLogPath(run.dir, 3)).toBe(path.join(root, '.ralph/runs/main/iterations/3.jsonl'));
    expect(worktreeDir(root, 'main')).toBe(path.join(root, '.ralph/worktrees/main'));
    expect(archiveEntryDir(root, new Date('2026-03-04T05:06:07Z'), 'main')).toBe(
      path.join(root, '.ralph/archive/2026-03-04-main'),
    );
  });

  it('rejects iteration numbers that are not positive integers', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => iterationLogPath('/r', n)).toThrow(UsageError);
  });

  it('recognises a ralph worktree and returns its main checkout', () => {
    expect(rootOfRalphWorktree(path.join(root, '.ralph/worktrees/main'))).toBe(root);
    expect(rootOfRalphWorktree(path.join(root, 'src'))).toBeNull();
    expect(rootOfRalphWorktree(path.join(root, '.ralph/worktrees'))).toBeNull();
    expect(rootOfRalphWorktree(path.join(root, 'worktrees/main'))).toBeNull();
  });
});
