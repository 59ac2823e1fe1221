import { describe, expect, it } from 'vitest';
import { splitAnswerWords } from './answer-words.js';

const runs = new Set(['auth', 'prd.json']);
const split = (...words: string[]) => splitAnswerWords(words, (w) => runs.has(w));

describe('splitAnswerWords', () => {
  it('takes an unquoted answer after the id, with or without a target', () => {
    expect(split('US-002', 'use', 'NFD')).toEqual({ id: 'US-002', text: 'use NFD' });
    expect(split('auth', 'US-002', 'use', 'NFD')).toEqual({ target: 'auth', id: 'US-002', text: 'use NFD' });
  });

  it('reads quoted answers as before', () => {
    expect(split('US-002', 'use NFD')).toEqual({ id: 'US-002', text: 'use NFD' });
    expect(split('auth', 'US-002', 'use NFD')).toEqual({ target: 'auth', id: 'US-002', text: 'use NFD' });
    expect(split('prd.json', 'Q1', 'yes')).toEqual({ target: 'prd.json', id: 'Q1', text: 'yes' });
  });

  it('needs an id and a text', () => {
    expect(split('US-002')).toBeNull();
    expect(split()).toBeNull();
  });
});
