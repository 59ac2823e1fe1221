import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { InvalidInputError } from '../core/errors.js';
import { applyGoalResult } from '../core/goal-apply.js';
import { formatIssue } from '../core/validation-issue.js';
import { goalSpecFromText } from './goal-spec.js';
import { readGoalProgress, writeGoalProgress } from './progress-file.js';
import type { GoalProgress } from './progress-schema.js';
import { newGoalProgress, recordAccepted, startIteration, upsertHookTask } from './progress-update.js';

const NOW = new Date('2026-01-18T10:00:00.000Z');

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('goal-progress');
});
afterEach(async () => {
  await removeTempDir(dir);
});

function sampleProgress(): GoalProgress {
  const spec = goalSpecFromText('Build auth.\nWith JWT.', { name: 'auth', successCriteria: ['Tests pass'] });
  let progress = startIteration(newGoalProgress(spec, NOW, 'SPRINT.yaml'), {
    iteration: 1,
    headBefore: 'abc1234',
    now: NOW,
    mode: 'planning',
    cwd: '/repo',
  });
  const result = {
    status: 'continue' as const,
    summary: 'Planned',
    completedStepIds: [],
    pendingSteps: [{ id: null, prompt: 'Initialise the auth module' }],
  };
  const applied = applyGoalResult({
    steps: [],
    idleStreak: 0,
    iteration: 1,
    minIterations: 0,
    result,
    now: NOW,
  });
  progress = recordAccepted(progress, { iteration: 1, mode: 'planning', now: NOW, result, applied });
  return upsertHookTask(progress, {
    iteration: 1,
    hookId: 'learning',
    kind: 'run',
    parallel: true,
    status: 'completed',
    spawnedAt: NOW.toISOString(),
    completedAt: NOW.toISOString(),
    exitCode: 0,
    outputFile: '/x/hooks/1-learning.log',
  });
}

describe('PROGRESS.yaml', () => {
  it('round-trips, in the kebab-case shape of seed 004', async () => {
    const file = path.join(dir, 'PROGRESS.yaml');
    const progress = sampleProgress();
    await writeGoalProgress(file, progress);
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^# The state of a ralph goal run/);
    for (const key of [
      'dynamic-steps:',
      'added-in-iteration: 1',
      'hook-tasks:',
      'hook-id: learning',
      'ralph-exit:',
    ]) {
      expect(text).toContain(key);
    }
    expect(text).toContain('mode: ralph');
    expect(text).toContain('goal: |-\n  Build auth.\n  With JWT.');
    expect(await readGoalProgress(file)).toEqual(progress);
  });

  it('is null when missing, and a file:line:column error when invalid', async () => {
    const file = path.join(dir, 'PROGRESS.yaml');
    expect(await readGoalProgress(file)).toBeNull();
    await writeGoalProgress(file, sampleProgress());
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('status: pending', 'status: half-done'));
    const error = await readGoalProgress(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    const issues = (error as InvalidInputError).issues.map(formatIssue);
    const line = text.split('\n').findIndex((l) => l.includes('status: pending')) + 1;
    expect(issues[0]).toMatch(new RegExp(`PROGRESS\\.yaml:${line}:\\d+: dynamic-steps\\[0\\]\\.status: `));
  });
});
