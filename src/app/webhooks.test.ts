import { describe, expect, it } from 'vitest';
import { parseConfig } from '../state/config.js';
import { showIssue } from './show-issue.js';
import { alertWishes, webhookTargets } from './webhooks.js';

const config = (yaml: string) => {
  const { config, issues } = parseConfig(yaml, 'config.yaml');
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  return config;
};

describe('alertWishes', () => {
  it('notifications: decides unless notify: says otherwise', () => {
    expect(alertWishes(config(''))).toEqual({ bell: true, desktop: false });
    expect(alertWishes(config('notifications:\n  desktop: true\n  bell: false\n'))).toEqual({
      bell: false,
      desktop: true,
    });
    expect(alertWishes(config('notify:\n  desktop: true\n'))).toEqual({ bell: true, desktop: true });
    expect(
      alertWishes(config('notifications:\n  desktop: true\nnotify:\n  desktop: false\n  bell: false\n')),
    ).toEqual({ bell: false, desktop: false });
  });

  it('notify: with only desktop has no webhooks', () => {
    expect(webhookTargets(config('notify:\n  desktop: true\n'))).toEqual([]);
  });

  it('a notify: key of the wrong type is refused with its path', () => {
    const { issues } = parseConfig('notify:\n  desktop: yes please\n', 'config.yaml');
    expect(issues.map((i) => showIssue(i)).join('\n')).toMatch(/notify\.desktop.*expected boolean/);
  });
});
