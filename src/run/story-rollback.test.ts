import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import type { RunEvent } from '../events/run-event.js';
import { defaultConfig } from '../state/config-schema.js';
import { rollBack } from './story-rollback.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('rollBack with onFailure: keep', () => {
  it.each([
    ['US..1', 'demo'],
    ['..', '.hidden'],
    ['a b/c:d', 'a..b'],
  ])(
    'keeps the failed attempt of story %j (PRD %j) under a valid rescue ref, then resets',
    async (id, name) => {
      repo = await makeTempRepo();
      const base = await repo.commit('base', { 'a.txt': 'a\n' });
      await repo.commit('feat: attempt', { 'a.txt': 'changed\n' });
      await repo.write('b.txt', 'untracked work\n');
      const events: RunEvent[] = [];
      await rollBack(
        {
          config: { ...defaultConfig(), onFailure: 'keep' },
          cwd: repo.dir,
          name,
          now: () => new Date('2025-01-02T03:04:05.678Z'),
          emit: (event) => events.push(event),
        },
        id,
        1,
        base,
      );
      expect(await repo.git('rev-parse', 'HEAD')).toBe(base);
      const event = events.find((e) => e.type === 'rolled-back');
      const ref = event?.type === 'rolled-back' ? event.rescueRef : undefined;
      expect(ref).toMatch(/^refs\/ralph\/rescue\/.+-attempt-1-2025-01-02T03-04-05-678Z$/);
      expect(await repo.git('show', `${ref}:b.txt`)).toBe('untracked work');
    },
  );
});
