/**
 * Seed 004's hooks in full, end to end: a SPRINT.yaml switches configured
 * hooks on and off by id, and a hook names its prompt file with
 * `workflow:` (`.ralph/workflows/<name>.md`). The hook's agent session (the
 * real Claude Code, scripted model) writes a file, which ralph commits on the
 * goal run's branch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGoalProject, type GoalProject, result } from '../support/goal-project.js';
import { EXHAUSTED_TEXT, type Turn, turnToReply } from '../support/model-script.js';

const CONFIG = [
  'hooks:',
  '  - id: learning',
  '    workflow: learn',
  '    enabled: false',
  '  - id: docs',
  '    run: echo docs >> DOCS.md',
  '',
].join('\n');

const SPRINT = [
  'workflow: ralph',
  'goal: Say hello',
  'per-iteration-hooks:',
  '  learning:',
  '    enabled: true',
  '  docs:',
  '    enabled: false',
  '',
].join('\n');

// biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own ${NAME} syntax
const WORKFLOW = 'HOOK extract learnings from $ITERATION_TRANSCRIPT for ${SPRINT_ID}\n';

const HOOK_TURNS: Turn[] = [
  {
    tool: 'Bash',
    input: { command: 'echo "- greet politely" >> LEARNINGS.md', description: 'note a learning' },
  },
  { text: 'Learnings extracted.' },
];

let project: GoalProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('seed 004 hooks', () => {
  it('switches hooks by id from SPRINT.yaml and runs a workflow prompt file, committing what it writes', async () => {
    project = await createGoalProject(
      { 1: [[result({ status: 'goal-complete', summary: 'Said hello', goalCompleteSummary: 'Hello.' })]] },
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/config.yaml': CONFIG,
        '.ralph/workflows/learn.md': WORKFLOW,
        'sprints/hello/SPRINT.yaml': SPRINT,
      },
      {
        wrap: (script) => (req) => {
          if (!req.prompt.startsWith('HOOK ')) return script(req);
          const turn = HOOK_TURNS[req.turn];
          return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
        },
      },
    );
    const run = await project.run(['--file', 'sprints/hello/SPRINT.yaml', '--headless']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);

    const hookCalls = project.server.modelCalls().filter((r) => r.prompt.startsWith('HOOK '));
    expect(hookCalls[0]?.prompt).toMatch(
      /^HOOK extract learnings from \/.*\/\.ralph\/runs\/hello\/iterations\/1\.jsonl for hello$/,
    );
    const progress = await project.progress('hello');
    expect(progress['hook-tasks']).toMatchObject([
      { 'hook-id': 'learning', kind: 'prompt', status: 'completed' },
    ]);
    // What the hook's agent wrote is on the run's branch, in a commit of ralph's own; the switched-off hook never ran.
    expect(await project.repo.git('show', 'ralph/hello:LEARNINGS.md')).toBe('- greet politely');
    const subjects = (await project.repo.git('log', '--format=%s', 'ralph/hello')).split('\n');
    expect(subjects).toContain('chore(ralph): hook learning after iteration 1');
    expect(await project.repo.git('ls-tree', '--name-only', 'ralph/hello')).not.toContain('DOCS.md');
  });

  it('refuses a hook whose workflow file is missing, with its file:line:column, before anything runs', async () => {
    project = await createGoalProject(
      {},
      { '.ralph/config.yaml': 'hooks:\n  - id: docs\n    workflow: doc-update\n' },
    );
    const run = await project.run(['Say hello', '--headless']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      '.ralph/config.yaml:3:15: hooks[0].workflow: no prompt file .ralph/workflows/doc-update.md for this workflow',
    );
    expect(await project.repo.git('branch', '--list', 'ralph/*')).toBe('');
  });
});
