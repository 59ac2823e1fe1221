/**
 * What each agent CLI keeps outside the checkout and needs inside a sandbox:
 * its own state (sessions, settings, logins), found the way the CLI itself
 * finds it, and the variables that carry its API keys and settings. Typed by
 * the provider list: an agent without an entry here does not compile.
 */
import path from 'node:path';
import type { EnvPattern } from '../core/sandbox-env.js';
import type { Provider } from '../state/providers.js';

export interface AgentHome {
  /** Written by the agent: its state directories (made when missing, as the agent would). */
  dirs: string[];
  /**
   * The agent's state files beside them, shown when they exist. In a
   * read-only `$HOME` an agent that replaces such a file by renaming a new
   * one over it cannot (Claude Code then goes on without saving `~/.claude.json`).
   */
  files: string[];
  /** Read by the agent: files its variables point at (credentials, a config file). */
  readable: string[];
  /** Its variables: API keys, base URLs, its own switches. */
  env: EnvPattern[];
  /**
   * Its login files (OAuth tokens it refreshes): the only files copied back
   * from the sandbox's copy of its state to the real one.
   */
  logins: string[];
}

type Env = NodeJS.ProcessEnv;

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The XDG base directories as the CLIs built on `xdg-basedir` read them. */
function xdg(env: Env, home: string) {
  return {
    config: set(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config'),
    data: set(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share'),
    cache: set(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache'),
    state: set(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state'),
  };
}

const present = (...values: (string | undefined)[]): string[] => values.filter(set);

const HOMES: Readonly<Record<Provider, (env: Env, home: string) => AgentHome>> = {
  // CLAUDE_CONFIG_DIR holds everything, `.claude.json` included; without it, ~/.claude and ~/.claude.json.
  claude: (env, home) => {
    const dir = set(env.CLAUDE_CONFIG_DIR) ? env.CLAUDE_CONFIG_DIR : path.join(home, '.claude');
    return {
      dirs: [dir],
      files: set(env.CLAUDE_CONFIG_DIR) ? [] : [path.join(home, '.claude.json')],
      readable: [],
      env: ['ANTHROPIC_*', 'CLAUDE_*', 'IS_SANDBOX', 'DISABLE_*', 'MCP_*', 'MAX_THINKING_TOKENS'],
      logins: [path.join(dir, '.credentials.json')],
    };
  },
  codex: (env, home) => {
    const dir = set(env.CODEX_HOME) ? env.CODEX_HOME : path.join(home, '.codex');
    return {
      dirs: [dir],
      files: [],
      readable: [],
      env: ['OPENAI_*', 'CODEX_*', 'AZURE_OPENAI_*'],
      logins: [path.join(dir, 'auth.json')],
    };
  },
  // Gemini CLI's home is GEMINI_CLI_HOME when set, else the user's.
  gemini: (env, home) => {
    const dir = path.join(set(env.GEMINI_CLI_HOME) ? env.GEMINI_CLI_HOME : home, '.gemini');
    return {
      dirs: [dir],
      files: [],
      readable: present(env.GOOGLE_APPLICATION_CREDENTIALS, env.GEMINI_CLI_SYSTEM_SETTINGS_PATH),
      env: ['GEMINI_*', 'GOOGLE_*'],
      logins: [path.join(dir, 'oauth_creds.json'), path.join(dir, 'google_accounts.json')],
    };
  },
  // OpenCode keeps data, config, cache and state under the XDG directories, each in `opencode/`.
  opencode: (env, home) => {
    const dirs = xdg(env, home);
    return {
      dirs: [dirs.data, dirs.config, dirs.cache, dirs.state].map((d) => path.join(d, 'opencode')),
      files: [],
      readable: present(env.OPENCODE_CONFIG, env.OPENCODE_CONFIG_DIR),
      // The providers it talks to most, by the key variables their SDKs read.
      env: [
        'OPENCODE_*',
        'ANTHROPIC_API_KEY',
        'OPENAI_API_KEY',
        'OPENROUTER_API_KEY',
        'GOOGLE_GENERATIVE_AI_API_KEY',
        'GROQ_API_KEY',
        'XAI_API_KEY',
        'DEEPSEEK_API_KEY',
        'MISTRAL_API_KEY',
      ],
      logins: [path.join(dirs.data, 'opencode', 'auth.json')],
    };
  },
  amp: (env, home) => {
    const dirs = xdg(env, home);
    return {
      dirs: [dirs.config, dirs.data, dirs.cache].map((d) => path.join(d, 'amp')),
      files: [],
      readable: present(env.AMP_SETTINGS_FILE),
      env: ['AMP_*'],
      logins: [path.join(dirs.data, 'amp', 'secrets.json')],
    };
  },
  cursor: (env, home) => ({
    dirs: [path.join(home, '.cursor'), path.join(xdg(env, home).config, 'cursor')],
    files: [],
    readable: [],
    env: ['CURSOR_*'],
    logins: [path.join(xdg(env, home).config, 'cursor', 'auth.json')],
  }),
};

export function agentHome(provider: Provider, env: Env, home: string): AgentHome {
  return HOMES[provider](env, home);
}
