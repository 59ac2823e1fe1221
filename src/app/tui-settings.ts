import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { writeFileAtomic } from '../state/atomic.js';
import { type Config, parseConfig } from '../state/config.js';
import { configPath } from '../state/layout.js';
import type { SettingsPatch, TuiSettings } from '../ui/tui/session.js';
import { showIssue } from './show-issue.js';
import { alertWishes } from './webhooks.js';

export const settingsOf = (config: Config): TuiSettings => ({
  agent: { provider: config.agent.provider, model: config.agent.model },
  checks: config.checks,
  worktree: { enabled: config.worktree.enabled, setup: config.worktree.setup },
  onComplete: { push: config.onComplete.push, createPR: config.onComplete.createPR },
  notifications: alertWishes(config),
});

/**
 * Writes the settings screen's change into `.ralph/config.yaml`, keeping the
 * file's comments and layout; validated first, nothing written on any issue.
 */
export async function saveSettings(
  root: string,
  patch: SettingsPatch,
): Promise<{ config?: Config; issues: string[] }> {
  const file = configPath(root);
  const text = await readFile(file, 'utf8').catch(() => '');
  const doc = parseDocument(text);
  const set = (path: string[], value: unknown) => {
    if (value !== undefined) doc.setIn(path, value);
  };
  set(['agent', 'provider'], patch.agent?.provider);
  set(['agent', 'model'], patch.agent?.model);
  if (patch.checks) set(['checks'], [...patch.checks]);
  set(['worktree', 'enabled'], patch.worktree?.enabled);
  set(['worktree', 'setup'], patch.worktree?.setup);
  set(['onComplete', 'push'], patch.onComplete?.push);
  set(['onComplete', 'createPR'], patch.onComplete?.createPR);
  set(['notifications', 'bell'], patch.notifications?.bell);
  set(['notifications', 'desktop'], patch.notifications?.desktop);
  // `notify:` may set them too, and wins: a change made on the screen goes there as well, so it holds.
  for (const key of ['bell', 'desktop'] as const)
    if (doc.hasIn(['notify', key])) set(['notify', key], patch.notifications?.[key]);
  const next = doc.toString();
  const { config, issues } = parseConfig(next, file);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) return { issues: errors.map((i) => showIssue(i)) };
  await writeFileAtomic(file, next);
  return { config, issues: [] };
}
