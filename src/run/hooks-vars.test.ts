import { describe, expect, it } from 'vitest';
import { envAllowed, SANDBOX_BASE_ENV } from '../core/sandbox-env.js';
import { hookFileStem, hookVariables, substituteHookVariables } from './hooks-vars.js';

describe('hook variables', () => {
  const variables = hookVariables({
    iteration: 5,
    runId: 'auth',
    transcript: '/r/iterations/5.jsonl',
    storyId: 'US-003',
    prd: '/p/prd.json',
  });

  it('names every template variable, with seed 004 aliases', () => {
    expect(variables).toEqual({
      ITERATION_TRANSCRIPT: '/r/iterations/5.jsonl',
      ITERATION: '5',
      RUN_ID: 'auth',
      STORY_ID: 'US-003',
      STEP_ID: '',
      PRD: '/p/prd.json',
      SPRINT_ID: 'auth',
      PHASE_ID: 'US-003',
    });
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook syntax under test
  it('substitutes $NAME and ${NAME}, longest name first, and leaves other dollars alone', () => {
    expect(
      substituteHookVariables(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook syntax under test
        'extract $ITERATION_TRANSCRIPT (iteration ${ITERATION}, $ITERATIONS, $HOME, $5, ${STORY_ID}x)',
        variables,
      ),
    ).toBe('extract /r/iterations/5.jsonl (iteration 5, $ITERATIONS, $HOME, $5, US-003x)');
  });

  it('keeps dollar signs inside values as they are', () => {
    const withDollar = { ...variables, RUN_ID: '$ITERATION' };
    expect(substituteHookVariables('$RUN_ID', withDollar)).toBe('$ITERATION');
  });

  it('reaches a sandboxed hook: every variable is on the sandbox’s allowlist', () => {
    const left = Object.keys(variables).filter((name) => !envAllowed(name, SANDBOX_BASE_ENV));
    expect(left).toEqual([]);
  });

  it('makes a file-safe stem from a hook id', () => {
    expect(hookFileStem(3, 'docs/update me')).toBe('3-docs_update_me');
  });
});
