import { describe, expect, it } from 'vitest';
import { isValidPrdName } from '../state/layout.js';
import { GOAL_NAME_LENGTH, nameForGoal } from './goal-spec.js';

describe('nameForGoal', () => {
  it('takes the first words of the first line, kebab-case, without a hash', () => {
    expect(nameForGoal('Write two step files.')).toBe('write-two-step-files');
    expect(nameForGoal('Write two step files\n\nFirst greet.txt, then bye.txt.')).toBe(
      'write-two-step-files',
    );
    expect(nameForGoal('  Fix the login bug (issue #42)!  ')).toBe('fix-the-login-bug-issue-42');
    expect(nameForGoal('Créer le README.md')).toBe('creer-le-readme.md');
  });

  it('stops at a word boundary within the length limit', () => {
    const name = nameForGoal('Build a complete authentication system with JWT tokens and refresh');
    expect(name).toBe('build-a-complete-authentication-system');
    expect(name.length).toBeLessThanOrEqual(GOAL_NAME_LENGTH);
    expect(nameForGoal('x'.repeat(90))).toBe('x'.repeat(GOAL_NAME_LENGTH));
  });

  it('always gives a valid, safe name', () => {
    for (const goal of ['../../etc/passwd', '!!!', '.hidden', 'a/b\\c', '日本語のゴール', 'prd']) {
      const name = nameForGoal(goal);
      expect(isValidPrdName(name)).toBe(true);
      expect(name).not.toContain('/');
    }
    expect(nameForGoal('!!!')).toBe('goal');
    expect(nameForGoal('../../etc/passwd')).toBe('etc-passwd');
  });
});
