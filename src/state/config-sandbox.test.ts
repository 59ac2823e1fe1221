import { describe, expect, it } from 'vitest';
import { formatIssue } from '../core/validation-issue.js';
import { parseConfig } from './config.js';
import { sandboxSettings } from './config-schema.js';

const parse = (text: string) => parseConfig(text, '.ralph/config.yaml');

describe('the sandbox: section', () => {
  it('is optional: without it, no sandbox, the user’s network, nothing more opened', () => {
    const { config, issues } = parse('');
    expect(issues).toEqual([]);
    expect(sandboxSettings(config)).toEqual({
      enabled: false,
      network: 'host',
      allowRead: [],
      allowWrite: [],
      env: [],
    });
  });

  it('fills in what a partial section leaves out', () => {
    const { config, issues } = parse('sandbox:\n  enabled: true\n  env: [GH_TOKEN, "AWS_*"]\n');
    expect(issues).toEqual([]);
    expect(sandboxSettings(config)).toEqual({
      enabled: true,
      network: 'host',
      allowRead: [],
      allowWrite: [],
      env: ['GH_TOKEN', 'AWS_*'],
    });
  });

  it('refuses a network it does not know and a variable that is not a name or a prefix, at their lines', () => {
    const { issues } = parse('sandbox:\n  network: off\n  env: ["A B", "X*Y"]\n  allowWrite: [""]\n');
    expect(issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^\.ralph\/config\.yaml:2:12: sandbox\.network: /),
      expect.stringMatching(/^\.ralph\/config\.yaml:4:16: sandbox\.allowWrite\[0\]: /),
      expect.stringMatching(/^\.ralph\/config\.yaml:3:9: sandbox\.env\[0\]: a variable name, or a prefix/),
      expect.stringMatching(/^\.ralph\/config\.yaml:3:16: sandbox\.env\[1\]: a variable name, or a prefix/),
    ]);
  });

  it('suggests the right key for a typo', () => {
    const { issues } = parse('sandbox:\n  allowwrite: ["~/.npm"]\n');
    expect(issues.map(formatIssue).join('\n')).toContain('allowWrite');
  });
});
