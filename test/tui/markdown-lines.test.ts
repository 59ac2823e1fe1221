import { describe, expect, it } from 'vitest';
import { markdownLines } from '../../src/ui/tui/model/markdown-lines.js';

const text = (markdown: string, width: number) => markdownLines(markdown, width, 'dim').map((l) => l.text);

describe('markdown in the details pane', () => {
  it('wraps a list item under its own text, at every depth, and numbers ordered lists', () => {
    const lines = text(
      '- **Learnings for future iterations:**\n  - the parser needs `--json` for anything a script reads\n    1. first\n    2. second',
      30,
    );
    expect(lines).toEqual([
      '• Learnings for future',
      '  iterations:',
      '  ◦ the parser needs --json',
      '    for anything a script',
      '    reads',
      '    1. first',
      '    2. second',
    ]);
  });

  it('keeps the lines an author broke, and drops heading marks, emphasis and code markers', () => {
    expect(
      text('## Iterations\niteration 1 (passed): *planned*\niteration 2 (failed): `npm test`', 60),
    ).toEqual(['Iterations', 'iteration 1 (passed): planned', 'iteration 2 (failed): npm test']);
  });

  it('an item of emphasis alone heads what is under it: brighter than the dim body', () => {
    const styles = markdownLines('- **Learnings:**\n  - one', 40, 'dim').map((l) => l.style);
    expect(styles).toEqual(['text', 'dim']);
  });
});
