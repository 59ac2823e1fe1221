import type { Story } from '../../src/core/types.js';

/** A story with neutral defaults, for tests of pure decisions. */
export function buildStory(id: string, over: Partial<Story> = {}): Story {
  return {
    id,
    title: `Story ${id}`,
    description: '',
    acceptanceCriteria: [],
    priority: 1,
    status: 'todo',
    dependsOn: [],
    order: 0,
    location: { file: 'prd.json' },
    ...over,
  };
}
