import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { formatIssue } from '../core/validation-issue.js';
import type { Hook } from '../state/config-schema.js';
import { parseSprint } from './sprint-file.js';

const FILE = '/work/proj/sprints/auth/SPRINT.yaml';
const learning: Hook = {
  id: 'learning',
  prompt: 'extract $ITERATION_TRANSCRIPT',
  parallel: true,
  enabled: false,
};

function issuesOf(text: string, configHooks: Hook[] = []): string[] {
  try {
    parseSprint(text, FILE, { configHooks });
  } catch (error) {
    if (error instanceof InvalidInputError) return error.issues.map(formatIssue);
    throw error;
  }
  throw new Error('expected the goal file to be rejected');
}

describe('parseSprint', () => {
  it('reads the minimal seed example with defaults, naming the run after its folder', () => {
    const spec = parseSprint('workflow: ralph\ngoal: |\n  Build auth.\n', FILE, { configHooks: [] });
    expect(spec).toEqual({
      name: 'auth',
      goal: 'Build auth.',
      successCriteria: [],
      settings: { idleThreshold: 3, minIterations: 0 },
      goalFile: path.resolve(FILE),
      hooks: [],
    });
  });

  it('reads every option of the full example', () => {
    const text = [
      'workflow: ralph',
      'goal: Build a complete authentication system.',
      'success-criteria:',
      '  - All endpoints tested',
      'ralph:',
      '  idle-threshold: 2',
      '  min-iterations: 15',
      '  max-iterations: 40',
      'per-iteration-hooks:',
      '  - id: docs',
      '    run: ./update-docs.sh',
      '    parallel: true',
      'sprint-id: 2026-01-18_auth-feature',
      'name: auth-feature',
      'created: 2026-01-18T10:30:00Z',
    ].join('\n');
    const spec = parseSprint(text, FILE, { configHooks: [learning] });
    expect(spec.name).toBe('auth-feature');
    expect(spec.successCriteria).toEqual(['All endpoints tested']);
    expect(spec.settings).toEqual({ idleThreshold: 2, minIterations: 15 });
    expect(spec.maxIterations).toBe(40);
    expect(spec.hooks).toEqual([
      learning,
      { id: 'docs', run: './update-docs.sh', parallel: true, enabled: true },
    ]);
  });

  it('switches configured hooks on by id, and rejects an unknown id at its line', () => {
    const spec = parseSprint('goal: x\nper-iteration-hooks:\n  learning:\n    enabled: true\n', FILE, {
      configHooks: [learning],
    });
    expect(spec.hooks).toEqual([{ ...learning, enabled: true }]);
    expect(issuesOf('goal: x\nper-iteration-hooks:\n  docs:\n    enabled: true\n', [learning])).toEqual([
      `${FILE}:3:3: per-iteration-hooks.docs: no hook "docs" in .ralph/config.yaml (configured: learning); define it here as a list item with run:, prompt: or workflow:`,
    ]);
  });

  it('reports problems with file:line:column', () => {
    expect(issuesOf('goal: x\nralph:\n  idle-treshold: 2\n')).toEqual([
      `${FILE}:3:3: ralph.idle-treshold: unknown key "idle-treshold" (did you mean "idle-threshold"?)`,
    ]);
    expect(issuesOf('workflow: phases\ngoal: x\n')[0]).toMatch(
      /:1:11: workflow: only `workflow: ralph` \(goal mode\) is supported/,
    );
    expect(issuesOf('goal: "  "\n')[0]).toMatch(/:1:7: goal: the goal must not be empty/);
    expect(issuesOf('goal: x\nper-iteration-hooks:\n  - id: a\n    run: x\n    prompt: y\n')[0]).toMatch(
      /:3:5: per-iteration-hooks\[0\]: a hook needs exactly one of `run`/,
    );
    expect(issuesOf('goal: [unclosed\n')[0]).toMatch(new RegExp(`^${FILE}:\\d+:\\d+: `));
  });

  it('insists on workflow: ralph when asked to (ralph run <file>)', () => {
    expect(() => parseSprint('goal: x\n', FILE, { configHooks: [], requireWorkflow: true })).toThrow(
      InvalidInputError,
    );
  });

  it('reads a hook that names a prompt file with workflow:, and points at a missing one', () => {
    const text =
      'goal: x\nper-iteration-hooks:\n  - id: docs\n    workflow: doc-update\n    parallel: true\n';
    const spec = parseSprint(text, FILE, { configHooks: [], workflowExists: (n) => n === 'doc-update' });
    expect(spec.hooks).toEqual([{ id: 'docs', workflow: 'doc-update', parallel: true, enabled: true }]);
    let issues: string[] = [];
    try {
      parseSprint(text, FILE, { configHooks: [], workflowExists: () => false });
    } catch (error) {
      if (error instanceof InvalidInputError) issues = error.issues.map(formatIssue);
    }
    expect(issues).toEqual([
      `${FILE}:4:15: per-iteration-hooks[0].workflow: no prompt file .ralph/workflows/doc-update.md`,
    ]);
    expect(
      issuesOf(
        'goal: x\nper-iteration-hooks:\n  - id: l\n    workflow: "m42-signs:learning-extraction"\n',
      )[0],
    ).toMatch(
      /:4:15: per-iteration-hooks\[0\]\.workflow: plugin workflows .* use `prompt: "\/namespace:command/,
    );
  });
});
