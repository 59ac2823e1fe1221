import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import type { Prd } from './types.js';
import { validatePrd } from './validate-prd.js';

const prd = (ids: string[], branch?: string): Prd => ({
  format: 'prd-json',
  path: 'prd.json',
  project: 'p',
  ...(branch !== undefined
    ? { branchName: branch, branchLocation: { file: 'prd.json', line: 3, column: 17 } }
    : {}),
  stories: ids.map((id, i) => buildStory(id, { location: { file: 'prd.json', line: 10 + i, column: 5 } })),
});

describe('validatePrd', () => {
  it('accepts ids that travel through signals, refs and file names', () => {
    expect(validatePrd(prd(['US-001', 'FEAT-1-1', '1.2', 'US-2.1.1', 'T_1', 'a+b#3'], 'ralph/x'))).toEqual(
      [],
    );
  });

  it.each([
    ['US 001', 'it contains whitespace, and the DONE signal reads the id only up to the first space'],
    ['US-001 ', 'it contains whitespace, and the DONE signal reads the id only up to the first space'],
    ['US..1', 'it contains "..", which git refs and paths refuse'],
    ['a/b', 'it contains "/", which a signal, a git ref or a file name cannot carry unchanged'],
    ['US:1', 'it contains ":", which a signal, a git ref or a file name cannot carry unchanged'],
    ['<x>', 'it contains "<", which a signal, a git ref or a file name cannot carry unchanged'],
    ['a\u0000b', 'it contains a control or invisible character'],
    ['a\u200bb', 'it contains a control or invisible character'],
    ['.x', 'it starts with "."'],
    ['-x', 'it starts with "-"'],
    ['x.lock', 'it ends with "." or ".lock"'],
    ['x'.repeat(101), 'it is 101 characters long (at most 100)'],
  ])('refuses the id %j, saying why', (id, why) => {
    expect(validatePrd(prd([id]))).toEqual([
      {
        file: 'prd.json',
        line: 10,
        column: 5,
        message: `story id ${JSON.stringify(id.length > 80 ? `${id.slice(0, 79)}…` : id)} cannot be used: ${why}`,
        severity: 'error',
      },
    ]);
  });

  it('refuses a branch name git would refuse, at the branchName', () => {
    expect(validatePrd(prd(['US-001'], 'ralph/x '))).toEqual([
      {
        file: 'prd.json',
        line: 3,
        column: 17,
        path: 'branchName',
        message: 'branch name "ralph/x " cannot be used: it contains whitespace (trailing spaces included)',
        severity: 'error',
      },
    ]);
  });
});
