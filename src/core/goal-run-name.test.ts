import { describe, expect, it } from 'vitest';
import { chooseGoalRunName, type NameUse } from './goal-run-name.js';

const uses =
  (table: Record<string, NameUse>) =>
  (name: string): NameUse =>
    table[name] ?? { kind: 'free' };

describe('chooseGoalRunName', () => {
  it('takes a free name, and resumes the goal run that has the same goal', () => {
    expect(chooseGoalRunName('write-files', 'Write files', true, uses({}))).toEqual({
      ok: true,
      name: 'write-files',
    });
    const taken = uses({ 'write-files': { kind: 'goal', goal: 'Write files\n' } });
    expect(chooseGoalRunName('write-files', ' Write files', true, taken)).toEqual({
      ok: true,
      name: 'write-files',
    });
  });

  it('moves a derived name past PRDs and other goals to the first free or same-goal suffix', () => {
    const taken = uses({
      'write-files': { kind: 'prd' },
      'write-files-2': { kind: 'goal', goal: 'Write files slowly' },
      'write-files-3': { kind: 'goal' },
    });
    expect(chooseGoalRunName('write-files', 'Write files', true, taken)).toEqual({
      ok: true,
      name: 'write-files-4',
    });
    expect(chooseGoalRunName('write-files', 'Write files slowly', true, taken)).toEqual({
      ok: true,
      name: 'write-files-2',
    });
  });

  it('keeps a name the user gave, even for an edited goal, but never a PRD’s', () => {
    const taken = uses({ auth: { kind: 'goal', goal: 'old goal' }, main: { kind: 'prd' } });
    expect(chooseGoalRunName('auth', 'new goal', false, taken)).toEqual({ ok: true, name: 'auth' });
    const clash = chooseGoalRunName('main', 'a goal', false, taken);
    expect(clash.ok).toBe(false);
    expect(clash.ok ? '' : clash.reason).toMatch(/main is the name of a PRD/);
  });
});
