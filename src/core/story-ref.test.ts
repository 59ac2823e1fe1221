import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInStoryNamespace, storyBranchName, storyRefComponent } from './story-ref.js';

const isValidBranch = (name: string): boolean => {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('story branch names', () => {
  it('keeps safe ids and never nests under the PRD branch ralph/<prd>', () => {
    expect(storyBranchName('demo', 'US-001')).toBe('ralph-stories/demo/US-001');
    expect(storyBranchName('demo', 'story-1.2')).toBe('ralph-stories/demo/story-1.2');
    expect(storyBranchName('demo', 'US-001').startsWith('ralph/demo/')).toBe(false);
  });

  it('makes any other id one safe component, and two ids never share one', () => {
    const a = storyRefComponent('US 1');
    const b = storyRefComponent('US_1');
    expect(b).toBe('US_1');
    expect(a).toMatch(/^US_1-[0-9a-f]{10}$/);
    expect(a).not.toBe(b);
    for (const id of ['../../etc', 'a/b', 'x.lock', '.hidden', 'a..b', 'é', '']) {
      const part = storyRefComponent(id);
      expect(part).not.toContain('/');
      expect(part).not.toContain('..');
      expect(isValidBranch(storyBranchName('demo', id))).toBe(true);
    }
  });

  it('is injective and always a valid branch name (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (x, y) => {
        if (x !== y) expect(storyRefComponent(x)).not.toBe(storyRefComponent(y));
        expect(storyRefComponent(x)).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/);
      }),
    );
  });

  it('tells a PRD branch in the story namespace', () => {
    expect(isInStoryNamespace('ralph-stories/x')).toBe(true);
    expect(isInStoryNamespace('ralph-stories')).toBe(true);
    expect(isInStoryNamespace('ralph/demo')).toBe(false);
    expect(isInStoryNamespace('ralph-storiesx')).toBe(false);
  });
});
