/**
 * Text leaves for a person in one place per medium, where control characters
 * are made visible: `src/cli/output.ts` for stdout and stderr, and the TUI's
 * own `Text` for the screen. A pure check over the source files.
 */
import { codeOnly, type SourceFile } from './import-rules.js';

export const CLI_WRITER = 'src/cli/output.ts';
export const TUI_TEXT = 'src/ui/tui/components/text.tsx';

const WRITES = /\bconsole\.\w+\s*\(|\bprocess\.(?:stdout|stderr)\.write\b/;
/** `Text` among the names imported from `ink`. */
const INK_TEXT = /^\s*import\s*(?:type\s*)?\{[^}]*\bText\b(?!Props)[^}]*\}\s*from\s*['"]ink['"]/m;

export interface WriterViolation {
  file: string;
  rule: 'writes-past-output' | 'draws-past-text';
}

export function checkOutputWriters(files: readonly SourceFile[]): WriterViolation[] {
  const found: WriterViolation[] = [];
  for (const file of files) {
    if (file.path.startsWith('src/cli/') && file.path !== CLI_WRITER && WRITES.test(codeOnly(file.text)))
      found.push({ file: file.path, rule: 'writes-past-output' });
    if (file.path.startsWith('src/') && file.path !== TUI_TEXT && INK_TEXT.test(file.text))
      found.push({ file: file.path, rule: 'draws-past-text' });
  }
  return found;
}
