/** Others' text reaches a person through one writer per medium, and the check that holds it can fail. */
import { describe, expect, it } from 'vitest';
import type { SourceFile } from './import-rules.js';
import { CLI_WRITER, checkOutputWriters, TUI_TEXT } from './output-writers.js';
import { sourceFiles } from './source-files.js';

const file = (p: string, text: string): SourceFile => ({ path: p, text });

describe('the output writers', () => {
  it('are the only way src/cli writes to the terminal, and the only Text the TUI draws with', async () => {
    const files = await sourceFiles();
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([CLI_WRITER, TUI_TEXT]));
    expect(checkOutputWriters(files)).toEqual([]);
  });

  it('fail for a command that prints past the writer, or a component drawing with Ink’s Text', () => {
    const found = checkOutputWriters([
      file('src/cli/commands/a.ts', 'export const a = (t: string) => console.log(t);'),
      file('src/cli/b.ts', 'export const b = (t: string) => process.stdout.write(t);'),
      file('src/cli/c.ts', "// console.log('a comment')\nexport const c = 'process.stderr.write';"),
      file(CLI_WRITER, 'export const print = (t: string) => process.stdout.write(t);'),
      file('src/ui/tui/components/d.tsx', "import { Box, Text } from 'ink';"),
      file('src/ui/tui/components/e.tsx', "import { Box, type TextProps } from 'ink';"),
      file(TUI_TEXT, "import { Text as InkText, type TextProps } from 'ink';"),
    ]);
    expect(found).toEqual([
      { file: 'src/cli/commands/a.ts', rule: 'writes-past-output' },
      { file: 'src/cli/b.ts', rule: 'writes-past-output' },
      { file: 'src/ui/tui/components/d.tsx', rule: 'draws-past-text' },
    ]);
  });
});
