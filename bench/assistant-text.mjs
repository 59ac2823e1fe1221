// Assistant text as agents write it: prose with inline code, fenced blocks
// (some quoting the signal protocol, which must not count), lists, and now
// and then a real signal. Deterministic, so runs compare.

const PARAGRAPHS = [
  'I looked at `src/core/select.ts` and the tests in `select.test.ts`; the ordering by priority is stable, so the change only touches `selectNextStory`.',
  'Running `npm test` shows 3 failures in the parser: the fixture uses `Array<string>` where the schema expects a tuple, and `[1, 2]` is read as a list.',
  'Next I will update the migration, re-run the type checker and commit with a message like `feat: add priority column`.',
  '- added the `priority` column\n- backfilled existing rows with `3`\n- updated the API docs and [the changelog](CHANGELOG.md)',
  'The protocol says to finish with `<ralph>DONE <id></ralph>` once the gates pass; I have not done that yet because the lint step fails on `any`.',
];
const FENCES = [
  '```ts\nexport function add(a: number, b: number): number {\n  return a + b; // <ralph>DONE US-001</ralph> is only an example\n}\n```',
  '```sh\nnpm run typecheck && npm test\n```',
  '~~~json\n{ "status": "continue", "summary": "added the column" }\n~~~',
  '```\n<ralph>FAIL US-002: quoted, not meant</ralph>\n[DONE]\n```',
];
const SIGNALS = [
  '<ralph>LEARN: run the migration before the API tests</ralph>',
  '<ralph>LEARN: the fixture loader caches by path; clear it between tests</ralph>',
];

/**
 * About `bytes` of text, as text blocks of about `blockBytes`, the last one
 * ending with DONE. `learnEvery`: one real LEARN signal per that many parts
 * (quoted signals in code stay frequent whatever it is).
 */
export function assistantBlocks(bytes, blockBytes = 4096, learnEvery = 11) {
  const blocks = [];
  let total = 0;
  let n = 0;
  while (total < bytes) {
    const parts = [];
    let size = 0;
    while (size < blockBytes) {
      const part =
        n % learnEvery === learnEvery - 1
          ? SIGNALS[n % SIGNALS.length]
          : n % 4 === 3
            ? FENCES[n % FENCES.length]
            : PARAGRAPHS[n % PARAGRAPHS.length];
      parts.push(part);
      size += part.length + 2;
      n++;
    }
    const block = parts.join('\n\n');
    blocks.push(block);
    total += block.length + 1;
  }
  blocks.push('All gates pass.\n\n<ralph>DONE US-001</ralph>');
  return blocks;
}
