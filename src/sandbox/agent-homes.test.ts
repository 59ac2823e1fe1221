import { describe, expect, it } from 'vitest';
import { envAllowed } from '../core/sandbox-env.js';
import { agentHome } from './agent-homes.js';

const HOME = '/home/ada';

describe('agentHome: each agent’s own state, found as the agent finds it', () => {
  it('Claude Code: CLAUDE_CONFIG_DIR holds it all, else ~/.claude and ~/.claude.json', () => {
    expect(agentHome('claude', {}, HOME)).toMatchObject({
      dirs: [`${HOME}/.claude`],
      files: [`${HOME}/.claude.json`],
    });
    expect(agentHome('claude', { CLAUDE_CONFIG_DIR: '/cfg/claude' }, HOME)).toMatchObject({
      dirs: ['/cfg/claude'],
      files: [],
    });
  });

  it('Codex: CODEX_HOME, else ~/.codex', () => {
    expect(agentHome('codex', {}, HOME).dirs).toEqual([`${HOME}/.codex`]);
    expect(agentHome('codex', { CODEX_HOME: '/c' }, HOME).dirs).toEqual(['/c']);
  });

  it('Gemini CLI: .gemini in GEMINI_CLI_HOME, else in the home directory', () => {
    expect(agentHome('gemini', {}, HOME).dirs).toEqual([`${HOME}/.gemini`]);
    expect(agentHome('gemini', { GEMINI_CLI_HOME: '/g' }, HOME).dirs).toEqual(['/g/.gemini']);
    expect(agentHome('gemini', { GOOGLE_APPLICATION_CREDENTIALS: '/k.json' }, HOME).readable).toEqual([
      '/k.json',
    ]);
  });

  it('OpenCode: opencode/ in each XDG directory, the defaults under the home directory', () => {
    expect(agentHome('opencode', {}, HOME).dirs).toEqual([
      `${HOME}/.local/share/opencode`,
      `${HOME}/.config/opencode`,
      `${HOME}/.cache/opencode`,
      `${HOME}/.local/state/opencode`,
    ]);
    expect(agentHome('opencode', { XDG_DATA_HOME: '/d', XDG_CONFIG_HOME: '/c' }, HOME).dirs).toEqual([
      '/d/opencode',
      '/c/opencode',
      `${HOME}/.cache/opencode`,
      `${HOME}/.local/state/opencode`,
    ]);
  });

  it('passes each agent its key variables, and no other agent’s', () => {
    const allows = (provider: Parameters<typeof agentHome>[0], name: string) =>
      envAllowed(name, agentHome(provider, {}, HOME).env);
    expect(allows('claude', 'ANTHROPIC_API_KEY')).toBe(true);
    expect(allows('claude', 'OPENAI_API_KEY')).toBe(false);
    expect(allows('codex', 'OPENAI_API_KEY')).toBe(true);
    expect(allows('codex', 'ANTHROPIC_API_KEY')).toBe(false);
    expect(allows('gemini', 'GEMINI_API_KEY')).toBe(true);
    expect(allows('opencode', 'OPENCODE_CONFIG_CONTENT')).toBe(true);
    expect(allows('amp', 'AMP_API_KEY')).toBe(true);
    expect(allows('cursor', 'CURSOR_API_KEY')).toBe(true);
  });
});
