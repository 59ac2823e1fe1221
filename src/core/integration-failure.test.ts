import { describe, expect, it } from 'vitest';
import { integrationFailure } from './integration-failure.js';
import { passCommitSubject, passedStoryIds } from './pass-commit.js';

describe('integrationFailure', () => {
  it('a conflict names the files, the stories that landed meanwhile, and carries the conflicting diff', () => {
    const failure = integrationFailure(
      { kind: 'conflict', files: ['shared.txt', 'b.txt'], diff: '<<<<<<< HEAD\none\n=======\ntwo\n>>>>>>>' },
      ['US-001', 'US-003'],
    );
    expect(failure.kind).toBe('conflict');
    expect(failure.reason).toContain('while it ran, US-001 and US-003 landed on the PRD branch');
    expect(failure.reason).toContain('`shared.txt` and `b.txt`');
    expect(failure.reason).toContain('starts from the new tip');
    expect(failure.gateOutputTail).toContain('<<<<<<< HEAD');
  });

  it('failing gates after landing name the command and keep its output', () => {
    const failure = integrationFailure(
      { kind: 'gates', command: 'npm test', exitCode: 1, outputTail: '1 failing' },
      ['US-002'],
    );
    expect(failure).toMatchObject({ kind: 'check-failed', gateOutputTail: '1 failing' });
    expect(failure.reason).toContain('the check `npm test` failed (exit 1): while it ran, US-002 landed');
  });
});

describe('pass commits', () => {
  it('are read back to the stories they record, in order', () => {
    const subjects = [
      passCommitSubject('A-1'),
      'feat: A-2 - x',
      passCommitSubject('US 2'),
      'chore(ralph): passed',
    ];
    expect(passedStoryIds(subjects)).toEqual(['A-1', 'US 2']);
  });
});
