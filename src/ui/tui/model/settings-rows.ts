/**
 * The settings screen as a list of rows, and the config change each edit
 * makes. Pure: saving is the session's.
 */
import { PROVIDERS } from '../../../state/config-schema.js';
import type { SettingsPatch, TuiSettings } from '../session.js';

export type SettingRow =
  | { id: 'provider'; label: string; value: string }
  | { id: 'model'; label: string; value: string }
  | { id: 'check'; label: string; value: string; index: number }
  | { id: 'add-check'; label: string; value: string }
  | { id: 'worktree' | 'push' | 'pr' | 'bell' | 'desktop'; label: string; value: string; on: boolean }
  | { id: 'setup'; label: string; value: string };

export type TextRow = Extract<SettingRow, { id: 'model' | 'check' | 'add-check' | 'setup' }>;

const onOff = (on: boolean) => (on ? 'on' : 'off');

export function settingRows(s: TuiSettings): SettingRow[] {
  const toggle = (id: 'worktree' | 'push' | 'pr' | 'bell' | 'desktop', label: string, on: boolean) =>
    ({ id, label, value: onOff(on), on }) as const;
  return [
    { id: 'provider', label: 'Agent', value: s.agent.provider },
    { id: 'model', label: 'Model', value: s.agent.model ?? '' },
    ...s.checks.map((value, index) => ({ id: 'check' as const, label: `Check ${index + 1}`, value, index })),
    { id: 'add-check', label: 'Add a check', value: '' },
    toggle('worktree', 'Worktree', s.worktree.enabled),
    { id: 'setup', label: 'Worktree setup', value: s.worktree.setup ?? '' },
    toggle('push', 'Push on complete', s.onComplete.push),
    toggle('pr', 'Pull request on complete', s.onComplete.createPR),
    toggle('bell', 'Terminal bell', s.notifications.bell),
    toggle('desktop', 'Desktop notification', s.notifications.desktop),
  ];
}

export const isTextRow = (row: SettingRow): row is TextRow =>
  row.id === 'model' || row.id === 'check' || row.id === 'add-check' || row.id === 'setup';

/** Enter on a toggle flips it; on the agent, `step` moves through the providers. */
export function togglePatch(row: SettingRow, s: TuiSettings, step = 1): SettingsPatch | null {
  switch (row.id) {
    case 'provider': {
      const at = PROVIDERS.indexOf(s.agent.provider);
      const next = PROVIDERS[(at + step + PROVIDERS.length) % PROVIDERS.length] ?? s.agent.provider;
      return { agent: { provider: next } };
    }
    case 'worktree':
      return { worktree: { enabled: !row.on } };
    case 'push':
      return { onComplete: { push: !row.on } };
    case 'pr':
      return { onComplete: { createPR: !row.on } };
    case 'bell':
      return { notifications: { bell: !row.on } };
    case 'desktop':
      return { notifications: { desktop: !row.on } };
    default:
      return null;
  }
}

/** The change a finished text edit makes; an emptied check is removed. Null when nothing changes. */
export function textPatch(row: TextRow, text: string, s: TuiSettings): SettingsPatch | null {
  const value = text.trim();
  switch (row.id) {
    case 'model':
      return (s.agent.model ?? '') === value ? null : { agent: { model: value === '' ? null : value } };
    case 'setup':
      return (s.worktree.setup ?? '') === value ? null : { worktree: { setup: value === '' ? null : value } };
    case 'add-check':
      return value === '' ? null : { checks: [...s.checks, value] };
    case 'check': {
      if (s.checks[row.index] === value) return null;
      const checks = s.checks.flatMap((c, i) => (i !== row.index ? [c] : value === '' ? [] : [value]));
      return { checks };
    }
  }
}
