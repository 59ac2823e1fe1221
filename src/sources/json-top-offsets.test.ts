import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topOffsets } from './json-top-offsets.js';
import { locateJsonPath, parseJsonTree } from './json-tree.js';
import { positionAt } from './text-position.js';

/** JSON text of `value` with random (but valid) whitespace between every token. */
function spaced(value: unknown, gaps: () => string): string {
  if (Array.isArray(value))
    return `[${gaps()}${value.map((v) => spaced(v, gaps)).join(`${gaps()},${gaps()}`)}${gaps()}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([k, v]) => `${JSON.stringify(k)}${gaps()}:${gaps()}${spaced(v, gaps)}`,
    );
    return `{${gaps()}${entries.join(`${gaps()},${gaps()}`)}${gaps()}}`;
  }
  return JSON.stringify(value);
}

const gap = fc.string({ unit: fc.constantFrom(' ', '\n', '\r\n', '\t'), maxLength: 3 });
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('any'), { maxLength: 3 }),
    fc.dictionary(fc.string(), tie('any'), { maxKeys: 3 }),
  ),
})).any;
const prd = fc.record(
  {
    project: fc.string(),
    branchName: value,
    userStories: fc.oneof(fc.array(value, { maxLength: 6 }), value),
    extra: value,
  },
  { requiredKeys: [] },
);

/** Where the syntax tree places a path, as the offsets are meant to agree with. */
const treeAt = (text: string, path: (string | number)[]) =>
  locateJsonPath(text, parseJsonTree(text).root, path);

describe('topOffsets', () => {
  it('places every story and the branch name where the syntax tree does', () => {
    fc.assert(
      fc.property(prd, fc.array(gap, { minLength: 1, maxLength: 20 }), (doc, gaps) => {
        let n = 0;
        const text = spaced(doc, () => gaps[n++ % gaps.length] ?? '');
        const offsets = topOffsets(text);
        if (offsets === undefined) throw new Error('a top-level object has offsets');
        const stories = Array.isArray(doc.userStories) ? doc.userStories : undefined;
        expect(offsets.stories?.length).toBe(stories?.length);
        offsets.stories?.forEach((offset, i) => {
          expect(positionAt(text, offset)).toEqual(treeAt(text, ['userStories', i]));
        });
        if ('branchName' in doc) {
          expect(offsets.branchName).toBeDefined();
          expect(positionAt(text, offsets.branchName ?? -1)).toEqual(treeAt(text, ['branchName']));
        } else {
          expect(offsets.branchName).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads an escaped key as the key it spells', () => {
    const text = '{"user\\u0053tories": [1, {"a": [2]}, "x"], "branch\\u004eame": "b"}';
    expect(topOffsets(text)).toEqual({
      stories: [text.indexOf('1'), text.indexOf('{"a"'), text.indexOf('"x"')],
      branchName: text.indexOf('"b"'),
    });
  });

  it('gives up on a repeated key, which the tree and JSON.parse read differently', () => {
    expect(topOffsets('{"userStories": [], "userStories": [1]}')).toBeUndefined();
    expect(topOffsets('{"branchName": "a", "branchName": "b"}')).toBeUndefined();
    expect(topOffsets('[1, 2]')).toBeUndefined();
  });
});
