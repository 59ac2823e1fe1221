import { Text as InkText, type TextProps } from 'ink';
import { Children } from 'react';
import { visibleText } from '../../../core/visible-text.js';

/**
 * Ink's `Text`, with the control characters of every string it draws shown
 * as symbols. Story titles, progress notes and the agent's and gates' output
 * are others' text; drawn raw, `ESC ]52;…` would write the clipboard and
 * `ESC [2J` clear the screen under the TUI. Every component draws text
 * through this one (test/architecture/output-writers.test.ts).
 */
export function Text({ children, ...props }: TextProps) {
  return (
    <InkText {...props}>
      {Children.map(children, (child) => (typeof child === 'string' ? visibleText(child) : child))}
    </InkText>
  );
}
