import { describe, expect, it } from 'vitest';
import { envLeftOut, SANDBOX_BASE_ENV, sandboxEnv } from './sandbox-env.js';

const USER_ENV: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'en_GB.UTF-8',
  HTTPS_PROXY: 'http://proxy:3128',
  RALPH_ATTEMPT: 'a1b2',
  ANTHROPIC_API_KEY: 'sk-ant',
  OPENAI_API_KEY: 'sk-oai',
  GH_TOKEN: 'ghp_secret',
  GITHUB_TOKEN: 'ghs_secret',
  AWS_ACCESS_KEY_ID: 'AKIA',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  NPM_TOKEN: 'npm-secret',
  DATABASE_URL: 'postgres://u:pw@db/app',
  SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
  XDG_RUNTIME_DIR: '/run/user/1000',
  GIT_DIR: '/elsewhere/.git',
};

describe('sandboxEnv', () => {
  it('passes what a shell, git and node need, and the agent’s own keys; not the rest', () => {
    const env = sandboxEnv(USER_ENV, [...SANDBOX_BASE_ENV, 'ANTHROPIC_*']);
    expect(Object.keys(env).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'HOME',
      'HTTPS_PROXY',
      'LANG',
      'LC_ALL',
      'PATH',
      'RALPH_ATTEMPT',
    ]);
  });

  it('passes what the user lists, by name or prefix', () => {
    const env = sandboxEnv(USER_ENV, [...SANDBOX_BASE_ENV, 'GH_TOKEN', 'AWS_*']);
    expect(env).toMatchObject({
      GH_TOKEN: 'ghp_secret',
      AWS_ACCESS_KEY_ID: 'AKIA',
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
    });
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it('sets what the sandbox decides over what was there', () => {
    expect(sandboxEnv({ TMPDIR: '/home/ada/tmp' }, SANDBOX_BASE_ENV, { TMPDIR: '/tmp' })).toEqual({
      TMPDIR: '/tmp',
    });
  });

  it('names what it left outside', () => {
    expect(envLeftOut(USER_ENV, [...SANDBOX_BASE_ENV, 'ANTHROPIC_*'])).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'DATABASE_URL',
      'GH_TOKEN',
      'GITHUB_TOKEN',
      'GIT_DIR',
      'NPM_TOKEN',
      'OPENAI_API_KEY',
      'SSH_AUTH_SOCK',
      'XDG_RUNTIME_DIR',
    ]);
  });

  it('never passes the serve token; ralph’s other variables only by their exact name', () => {
    const ralph = { ...USER_ENV, RALPH_SERVE_TOKEN: 'serve-secret', RALPH_AGENT: 'claude', RALPH_FILES: 'x' };
    // The old base list's `RALPH_*` let the web page's token in: the same pattern listed by the user now cannot.
    for (const listed of [['RALPH_*'], ['RALPH_SERVE_TOKEN'], ['*']]) {
      const env = sandboxEnv(ralph, [...SANDBOX_BASE_ENV, ...listed]);
      expect(env.RALPH_SERVE_TOKEN).toBeUndefined();
      expect(env.RALPH_AGENT).toBeUndefined();
      expect(env.RALPH_ATTEMPT).toBe('a1b2');
    }
    // A variable the user named for an agent (`agent.env`), as it is.
    expect(sandboxEnv(ralph, [...SANDBOX_BASE_ENV, 'RALPH_AGENT']).RALPH_AGENT).toBe('claude');
  });

  it('passes GitHub’s tokens only when named exactly, never through a pattern', () => {
    expect(sandboxEnv(USER_ENV, [...SANDBOX_BASE_ENV, 'GH_*', 'GITHUB_*', '*']).GH_TOKEN).toBeUndefined();
    expect(sandboxEnv(USER_ENV, [...SANDBOX_BASE_ENV, 'GH_*', 'GITHUB_*']).GITHUB_TOKEN).toBeUndefined();
    expect(sandboxEnv(USER_ENV, [...SANDBOX_BASE_ENV, 'GITHUB_TOKEN']).GITHUB_TOKEN).toBe('ghs_secret');
  });

  it('names every base variable exactly', () => {
    expect(SANDBOX_BASE_ENV.filter((name) => name.includes('*'))).toEqual([]);
  });
});
