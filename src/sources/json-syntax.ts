import { type ParseError, printParseErrorCode } from 'jsonc-parser';
import type { ValidationIssue } from '../core/validation-issue.js';
import { positionAt } from './text-position.js';

const messages: Record<string, string> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number format',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'unexpected content after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

/** The comma before `offset` when only whitespace separates them and a closing bracket follows. */
function trailingCommaBefore(text: string, offset: number): number | undefined {
  const next = text[offset];
  if (next !== ']' && next !== '}') return undefined;
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i] ?? '')) i--;
  return text[i] === ',' ? i : undefined;
}

/**
 * The first syntax error as a validation issue. Later errors are almost
 * always knock-on effects of the first, so they are not reported.
 */
export function jsonSyntaxIssue(
  text: string,
  file: string,
  errors: readonly ParseError[],
): ValidationIssue[] {
  const first = errors[0];
  if (!first) return [];
  const code = printParseErrorCode(first.error);
  const comma =
    code === 'ValueExpected' || code === 'PropertyNameExpected'
      ? trailingCommaBefore(text, first.offset)
      : undefined;
  const offset = comma ?? first.offset;
  let message = comma !== undefined ? 'trailing comma is not allowed in JSON' : (messages[code] ?? code);
  if (text.trim() === '') message = 'the file is empty';
  return [{ file, ...positionAt(text, offset), message: `invalid JSON: ${message}`, severity: 'error' }];
}
