import { stringify } from 'yaml';

/** How each agent CLI is installed on a runner and which secret holds its key. */
export const AGENT_ON_RUNNER = {
  claude: { npm: '@anthropic-ai/claude-code', keys: ['ANTHROPIC_API_KEY'] },
  codex: { npm: '@openai/codex', keys: ['OPENAI_API_KEY'] },
  gemini: { npm: '@google/gemini-cli', keys: ['GEMINI_API_KEY'] },
  opencode: { npm: 'opencode-ai', keys: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] },
  amp: { npm: '@ampcode/cli', keys: ['AMP_API_KEY'] },
} as const satisfies Record<string, { npm: string; keys: readonly string[] }>;
export type RunnerAgent = keyof typeof AGENT_ON_RUNNER;

export interface WorkflowSpec {
  /** The PRD's name: a safe file and job-name component (validated by the caller). */
  prd: string;
  /** The PRD branch the integrator lands on and the pull request comes from. */
  prdBranch: string;
  agent: RunnerAgent;
  /** Story jobs at once. */
  parallel: number;
  /** npm spec ralph is installed from on the runner. */
  ralphPackage: string;
  runsOn: string;
  node: string;
  /** Rounds (plan, stories, integrate) one dispatch chain may take before it stops asking for more. */
  maxRounds: number;
}

export const workflowFileName = (prd: string): string => `ralph-${prd}.yml`;

/** A GitHub Actions expression, `${{ … }}`. */
const expr = (expression: string): string => `\${{ ${expression} }}`;

const CHECKOUT = 'actions/checkout@v4';
const SETUP_NODE = 'actions/setup-node@v4';

/**
 * `.github/workflows/ralph-<prd>.yml`: the three roles as jobs. `plan`
 * prints the matrix; `story` runs one worker per ready story; `integrate`
 * (one at a time per PRD, by its concurrency group) lands what was
 * verified, then dispatches the workflow again while stories remain, or
 * opens the pull request once all have landed. Every value that comes from
 * outside (names, story ids, inputs) reaches the shell as an environment
 * variable, never spliced into a `run:` line; secrets only as the agent's
 * environment in the one step that needs them; each job has the
 * permissions it uses and no more.
 */
export function githubWorkflow(spec: WorkflowSpec): string {
  const agent = AGENT_ON_RUNNER[spec.agent];
  const setUp = (withAgent: boolean) => [
    { name: 'Check out', uses: CHECKOUT, with: { 'fetch-depth': 0 } },
    { name: 'Set up Node.js', uses: SETUP_NODE, with: { 'node-version': spec.node } },
    {
      name: withAgent ? 'Install ralph and the agent CLI' : 'Install ralph',
      run: withAgent
        ? 'npm install --global "$RALPH_PACKAGE" "$AGENT_PACKAGE"'
        : 'npm install --global "$RALPH_PACKAGE"',
    },
    {
      name: 'Commit as ralph',
      run: [
        'git config --global user.name "ralph"',
        'git config --global user.email "ralph@users.noreply.github.com"',
      ].join('\n'),
    },
  ];
  const workflow = {
    name: `ralph ${spec.prd}`,
    on: {
      workflow_dispatch: {
        inputs: {
          round: {
            description: 'which round of plan, stories, integrate this is',
            required: false,
            default: '1',
          },
        },
      },
    },
    permissions: {},
    defaults: { run: { shell: 'bash' } },
    env: {
      RALPH_PRD: spec.prd,
      RALPH_BRANCH: spec.prdBranch,
      RALPH_PACKAGE: spec.ralphPackage,
      AGENT_PACKAGE: agent.npm,
    },
    jobs: {
      plan: {
        name: 'Plan',
        'runs-on': spec.runsOn,
        permissions: { contents: 'read' },
        'timeout-minutes': 15,
        outputs: {
          stories: expr('steps.plan.outputs.stories'),
          count: expr('steps.plan.outputs.count'),
        },
        steps: [
          ...setUp(false),
          {
            name: 'Plan the ready stories',
            id: 'plan',
            env: { PARALLEL: String(spec.parallel) },
            run: [
              'ralph plan "$RALPH_PRD" --branch "$RALPH_BRANCH" --json --parallel "$PARALLEL" > "$RUNNER_TEMP/plan.json"',
              'cat "$RUNNER_TEMP/plan.json"',
              'echo "stories=$(jq -c .ids "$RUNNER_TEMP/plan.json")" >> "$GITHUB_OUTPUT"',
              'echo "count=$(jq ".ids | length" "$RUNNER_TEMP/plan.json")" >> "$GITHUB_OUTPUT"',
            ].join('\n'),
          },
        ],
      },
      story: {
        name: `Story ${expr('matrix.story')}`,
        needs: 'plan',
        if: "needs.plan.outputs.count != '0'",
        'runs-on': spec.runsOn,
        permissions: { contents: 'write' },
        'timeout-minutes': 120,
        strategy: {
          'fail-fast': false,
          'max-parallel': spec.parallel,
          matrix: { story: expr('fromJSON(needs.plan.outputs.stories)') },
        },
        steps: [
          ...setUp(true),
          {
            name: 'Work the story',
            env: {
              STORY: expr('matrix.story'),
              AGENT: spec.agent,
              ...Object.fromEntries(agent.keys.map((key) => [key, expr(`secrets.${key}`)])),
            },
            run: 'ralph run "$RALPH_PRD" --branch "$RALPH_BRANCH" --story "$STORY" --worker --headless --agent "$AGENT"',
          },
        ],
      },
      integrate: {
        name: 'Integrate',
        needs: ['plan', 'story'],
        // Stories that failed or were skipped do not stop the others from landing.
        if: expr('!cancelled()'),
        'runs-on': spec.runsOn,
        permissions: { contents: 'write', 'pull-requests': 'write', actions: 'write' },
        concurrency: { group: `ralph-integrate-${spec.prd}`, 'cancel-in-progress': false },
        'timeout-minutes': 60,
        steps: [
          ...setUp(false),
          {
            name: 'Land verified stories',
            id: 'integrate',
            run: [
              'ralph integrate "$RALPH_PRD" --branch "$RALPH_BRANCH" --json | tee "$RUNNER_TEMP/integrate.ndjson"',
              `echo "next=$(jq -r 'select(.type == "integrate-finished") | .next' "$RUNNER_TEMP/integrate.ndjson")" >> "$GITHUB_OUTPUT"`,
            ].join('\n'),
          },
          {
            name: 'Dispatch the next round',
            if: "steps.integrate.outputs.next == 'dispatch'",
            env: {
              GH_TOKEN: expr('github.token'),
              WORKFLOW: workflowFileName(spec.prd),
              REF: expr('github.ref_name'),
              ROUND: expr('inputs.round'),
              MAX_ROUNDS: String(spec.maxRounds),
            },
            run: [
              'round=$(( ROUND + 1 ))',
              'if [ "$round" -gt "$MAX_ROUNDS" ]; then',
              '  echo "::warning::stopping after $MAX_ROUNDS rounds; dispatch the workflow again to go on"',
              '  exit 0',
              'fi',
              'gh workflow run "$WORKFLOW" --ref "$REF" -f round="$round"',
            ].join('\n'),
          },
          {
            name: 'Open the pull request',
            if: "steps.integrate.outputs.next == 'pull-request'",
            env: {
              GH_TOKEN: expr('github.token'),
              BASE: expr('github.event.repository.default_branch'),
            },
            run: [
              'if [ -z "$(gh pr list --head "$RALPH_BRANCH" --state open --json number --jq ".[].number")" ]; then',
              '  gh pr create --base "$BASE" --head "$RALPH_BRANCH" --title "ralph: $RALPH_PRD" --body "Every story of $RALPH_PRD landed and passed its gates."',
              'fi',
            ].join('\n'),
          },
        ],
      },
    },
  };
  const header = [
    `# Written by \`ralph ci github ${spec.prd}\`: the PRD's stories as jobs, with the repository as the shared state.`,
    `# Run it from the Actions tab (workflow_dispatch). Secrets: ${agent.keys.join(' or ')}.`,
    '# See docs/scale-out.md. Regenerate rather than edit: `ralph ci github --force` rewrites it.',
  ].join('\n');
  return `${header}\n${stringify(workflow, { lineWidth: 0 })}`;
}
