import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import { allDoneMessage } from './scope-summary.js';

const stories = [
  buildStory('US-001', { order: 0 }),
  buildStory('US-002', { order: 1, status: 'done' }),
  buildStory('US-003', { order: 2, status: 'done' }),
  buildStory('US-004', { order: 3 }),
];

describe('allDoneMessage', () => {
  it('says all stories passed only when the scope was the whole PRD', () => {
    expect(allDoneMessage(stories, {}, new Set())).toBe('all stories passed');
  });

  it('--story names the story and the stories it left out', () => {
    expect(allDoneMessage(stories, { onlyStoryId: 'US-002' }, new Set(['US-002']))).toBe(
      'US-002 passed; 2 other stories are still to do (left out by --story)',
    );
    expect(allDoneMessage(stories, { onlyStoryId: 'US-003' }, new Set())).toBe(
      'US-003 had already passed; nothing to do; 2 other stories are still to do (left out by --story)',
    );
    const done = stories.map((s) => ({ ...s, status: 'done' as const }));
    expect(allDoneMessage(done, { onlyStoryId: 'US-001' }, new Set(['US-001']))).toBe('US-001 passed');
  });

  it('--resume-from counts the open stories before it', () => {
    expect(allDoneMessage(stories.slice(0, 3), { resumeFromId: 'US-002' }, new Set())).toBe(
      'every story from US-002 on passed; 1 other story is still to do (left out by --resume-from)',
    );
  });
});
