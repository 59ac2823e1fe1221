import { describe, expect, it } from 'vitest';
import { GOAL_PROMPT } from './embedded-prompts.js';
import { buildGoalPrompt, type GoalPromptInput } from './goal-prompt.js';
import { parseGoalResult } from './goal-result.js';
import type { GoalStep } from './goal-types.js';

const step = (id: string, status: GoalStep['status'], prompt: string): GoalStep => ({
  id,
  prompt,
  status,
  addedAt: '2026-01-01T00:00:00.000Z',
  addedInIteration: 1,
});

const base: GoalPromptInput = {
  template: GOAL_PROMPT,
  goal: 'Build a greeting module.',
  successCriteria: [],
  iteration: 1,
  selection: { mode: 'planning' },
  steps: [],
  history: [],
  feedback: null,
  minIterations: 0,
  checks: [],
};

describe('buildGoalPrompt with the built-in template', () => {
  it('asks the first iteration to plan, with no steps yet', () => {
    const prompt = buildGoalPrompt({ ...base, successCriteria: ['Tests pass'] });
    expect(prompt).toContain('Build a greeting module.');
    expect(prompt).toContain('## Iteration 1: planning');
    expect(prompt).toContain('- Tests pass');
    expect(prompt).toContain('No steps yet.');
    expect(prompt).not.toContain('Execute this step');
    expect(prompt).not.toContain('## About the previous iteration');
    expect(prompt).not.toMatch(/\n\n\n/);
  });

  it('names the step to execute and lists the others', () => {
    const steps = [
      step('step-0', 'completed', 'Create greet.txt'),
      step('step-1', 'pending', 'Create bye.txt'),
    ];
    const selection = { mode: 'executing' as const, step: steps[1] as GoalStep };
    const prompt = buildGoalPrompt({
      ...base,
      iteration: 3,
      selection,
      steps,
      history: [
        {
          iteration: 2,
          mode: 'executing',
          stepId: 'step-0',
          outcome: 'continue',
          summary: 'Wrote greet.txt',
          at: '2026-01-01T00:00:00.000Z',
        },
      ],
    });
    expect(prompt).toContain('## Iteration 3: executing');
    expect(prompt).toContain('**step-1**: Create bye.txt');
    expect(prompt).toContain('- [x] step-0: Create greet.txt');
    expect(prompt).toContain('- [ ] step-1: Create bye.txt');
    expect(prompt).toContain('- 2 (executing step-0, continue): Wrote greet.txt');
  });

  it('asks a reflecting iteration to judge the work, naming the idle iterations', () => {
    const prompt = buildGoalPrompt({
      ...base,
      iteration: 9,
      selection: { mode: 'reflecting', idleIterations: 3 },
      steps: [step('step-0', 'completed', 'x')],
    });
    expect(prompt).toContain('## Iteration 9: reflecting');
    expect(prompt).toContain('The last 3 iterations neither completed nor added a step');
    expect(prompt).toContain('No step is pending.');
  });

  it('feeds back a failure with the check output, a min-iterations rule and a pending human question', () => {
    const prompt = buildGoalPrompt({
      ...base,
      iteration: 2,
      feedback: {
        iteration: 1,
        kind: 'failed',
        message: 'Iteration 1 failed: the result block is not valid JSON',
        outputTail: 'FAIL greet.test',
      },
      humanNeeded: { reason: 'No API key', details: 'Set KEY in .env', iteration: 1 },
      minIterations: 4,
      checks: ['npm test'],
      goalFile: 'SPRINT.yaml',
    });
    expect(prompt).toContain('Iteration 1 failed: the result block is not valid JSON');
    expect(prompt).toContain('```\nFAIL greet.test\n```');
    expect(prompt).toContain('accepted from iteration 4 on');
    expect(prompt).toContain('Iteration 1 stopped the run because it needed a person: No API key');
    expect(prompt).toContain('- `npm test`');
    expect(prompt).toContain('or the goal file (SPRINT.yaml)');
  });

  it('shows an example result that the parser itself accepts', () => {
    const prompt = buildGoalPrompt(base);
    const parsed = parseGoalResult([prompt.slice(prompt.indexOf('## Your result'))]);
    expect(parsed.ok).toBe(true);
  });
});
