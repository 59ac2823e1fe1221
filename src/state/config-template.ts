import type { Provider } from './config-schema.js';

export interface ConfigTemplateOptions {
  provider?: Provider;
  /** Gate commands to pre-fill, e.g. detected from the project's package.json. */
  checks?: readonly string[];
}

const quote = (value: string): string => JSON.stringify(value);

/** `.ralph/config.yaml` as `ralph init` writes it: every key, each with what it does. */
export function renderConfigTemplate(options: ConfigTemplateOptions = {}): string {
  const checks =
    options.checks && options.checks.length > 0
      ? `\n${options.checks.map((c) => `  - ${quote(c)}`).join('\n')}`
      : ' []        # e.g. ["npm run typecheck", "npm test"]';
  return `# ralph configuration. Every key is optional; the values below are the defaults.
# Command-line options (and RALPH_AGENT / RALPH_AGENT_PATH) override this file.

# The coding agent ralph runs, one fresh process per iteration.
agent:
  # Which agent CLI runs each iteration: claude | codex | opencode | gemini | amp | cursor
  provider: ${options.provider ?? 'claude'}
  # The agent binary to run; null finds it on PATH.
  path: null
  # Model name passed to the agent; null uses the agent's own default.
  model: null
  # Providers to switch to, in order, when the current one is rate-limited or unavailable.
  fallback: []
  # Extra command-line arguments per provider, e.g.  claude: ["--verbose"]
  args: {}
  # Extra environment variables per provider, e.g.  codex: { OPENAI_BASE_URL: "http://localhost:8080" }
  env: {}

# Gate commands run (in order) after the agent signals DONE; a story passes only if all succeed.
checks:${checks}

# When to stop. Command-line options such as --max-iterations override these.
limits:
  # Iterations per run; null means the number of remaining stories + 5.
  maxIterations: null
  # Wall-clock limit for one iteration, in seconds.
  timeout: 1800
  # Kill an agent that has printed nothing for this many seconds.
  idleTimeout: 300
  # Attempts per story before it is parked.
  maxRetries: 3
  # Stop before spending more than this many US dollars in total; null means no limit.
  maxCost: null

# What happens to a failed attempt's changes: rollback (reset to where the attempt began)
# or keep (save them to a rescue ref first, then roll back).
onFailure: rollback

# Where the agent works.
worktree:
  # Run each PRD in its own worktree (.ralph/worktrees/<name>, branch ralph/<name>).
  enabled: true
  # Shell command run once in a new worktree, e.g. "npm ci"; null for none.
  setup: null

# What to do once every story has passed.
onComplete:
  # Push the branch (git push -u).
  push: false
  # Open a pull request with gh.
  createPR: false

# How to tell you a run has ended.
notifications:
  # Ring the terminal bell when a run ends.
  bell: true
  # Show a desktop notification when a run ends.
  desktop: false

# Webhooks to tell when a run needs you or ends: a JSON POST with event, text, prd, story, passed,
# total, costUsd and at (Slack, Mattermost and similar incoming webhooks show the text as it is).
# --notify URL adds more for one run. None by default; for example:
#   notify:
#     webhooks: ["https://hooks.slack.com/services/…"]
#     # Which to send (all when left out): question, story-parked, waiting, auth-failed, limit-reached, run-finished
#     events: [question, run-finished]

# Commands or prompts run after each iteration; what they write is committed by ralph. Each entry:
#   - id: docs            # unique name
#     run: "npm run docs"  # a shell command, or
#     prompt: "..."        # a prompt for the agent, or
#     workflow: doc-update # the prompt in .ralph/workflows/doc-update.md (exactly one of the three)
#     parallel: false      # true: run in a checkout of its own beside the next iteration
#     enabled: true
hooks: []

# Guidance added to the story prompt (see it with \`ralph run --dry-run\`).
prompt:
  # Put reusable patterns and gotchas into AGENTS.md in the directories the story touched,
  # which coding agents read on their own.
  agentsMd: true
  # Work test-first: a failing test for each acceptance criterion (red), the simplest change
  # that passes it (green), then clean up (refactor).
  testFirst: false
  # Check visual or UI changes with a screenshot or in a browser, or say why this environment cannot.
  visualCheck: false

# --sandbox: the agent, its gates and its hooks run under bubblewrap (Linux) or sandbox-exec
# (macOS). They may write only the checkout (and the parts of .git a commit needs, never
# .git/hooks or .git/config), the agent's own state folders and a private /tmp; $HOME looks
# empty but for those and the agent's install. \`ralph doctor\` says whether it works here.
# The section is optional; uncomment it to change a default:
# sandbox:
#   # Sandbox every run (--sandbox / --no-sandbox override it).
#   enabled: false
#   # host: the user's network (the agent reaches its API); none: no network at all.
#   network: host
#   # Also readable inside, e.g. ["~/.m2"] (~/ is your home; relative paths start at the project root).
#   allowRead: []
#   # Also writable inside, e.g. ["~/.npm"] for a package cache.
#   allowWrite: []
#   # Variables passed in besides the basics and the agent's own keys, e.g. ["GH_TOKEN", "AWS_*"].
#   env: []
`;
}
