/**
 * Text leaves for a person in one place per medium, where control characters
 * are made visible: `src/cli/output.ts` for stdout and stderr, and the TUI's
 * own `Text` for the screen. A pure check over the source files' syntax trees.
 */
import { printsOrExits, type SourceFile } from './import-rules.js';
import { moduleReferences, parse } from './syntax.js';

export const CLI_WRITER = 'src/cli/output.ts';
export const TUI_TEXT = 'src/ui/tui/components/text.tsx';

export interface WriterViolation {
  file: string;
  rule: 'writes-past-output' | 'draws-past-text';
}

/** Ink's `Text` imported by name, or the whole of `ink` (through which `Text` can be reached). */
const importsInkText = (file: SourceFile): boolean =>
  moduleReferences(parse(file.path, file.text)).some(
    (ref) =>
      ref.specifier === 'ink' &&
      ref.names.some((name) => name === 'Text' || name === '*' || name === 'default'),
  );

export function checkOutputWriters(files: readonly SourceFile[]): WriterViolation[] {
  const found: WriterViolation[] = [];
  for (const file of files) {
    if (
      file.path.startsWith('src/cli/') &&
      file.path !== CLI_WRITER &&
      printsOrExits(file).some((p) => p.writes)
    )
      found.push({ file: file.path, rule: 'writes-past-output' });
    if (file.path.startsWith('src/') && file.path !== TUI_TEXT && importsInkText(file))
      found.push({ file: file.path, rule: 'draws-past-text' });
  }
  return found;
}
