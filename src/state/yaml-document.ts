import { isMap, isSeq, LineCounter, type Node, parseDocument, type YAMLError } from 'yaml';
import { formatPath, type ValidationIssue } from '../core/validation-issue.js';
import { yamlErrorMessage, yamlToValue } from '../core/yaml-limits.js';

export interface Position {
  line: number;
  column: number;
}

export interface ParsedYaml {
  /** The document as plain data; undefined when it has syntax errors. */
  value: unknown;
  /** Syntax errors and warnings, with file:line:column. */
  issues: ValidationIssue[];
  /**
   * Where a path points in the source: the value if present, else its key,
   * else the nearest ancestor. With `key: true`, the key itself (for
   * unknown-key errors).
   */
  locate(path: ReadonlyArray<PropertyKey>, options?: { key?: boolean }): Position | undefined;
}

export function parseYaml(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  const toIssue = (error: YAMLError, severity: 'error' | 'warning'): ValidationIssue => {
    const pos = error.linePos?.[0];
    return {
      file,
      ...(pos ? { line: pos.line, column: pos.col } : {}),
      message: stripLocation(error.message),
      severity,
    };
  };
  const issues = [
    ...doc.errors.map((e) => toIssue(e, 'error')),
    ...doc.warnings.map((e) => toIssue(e, 'warning')),
  ];
  const position = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  let value: unknown;
  if (doc.errors.length === 0) {
    const read = yamlToValue(doc);
    if (read.ok) value = read.value;
    else issues.push({ file, ...position(read.offset), message: read.message, severity: 'error' });
  }
  return {
    value,
    issues,
    locate: (path, options = {}) => position(findOffset(doc.contents, path, options.key === true)),
  };
}

function findOffset(
  root: Node | null,
  path: ReadonlyArray<PropertyKey>,
  wantKey: boolean,
): number | undefined {
  let node: unknown = root;
  let offset = startOf(root);
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === String(segment));
      if (!pair) return offset;
      offset = startOf(pair.key) ?? offset;
      if (last && wantKey) return offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (node === undefined) return offset;
    } else {
      return offset;
    }
    offset = startOf(node) ?? offset;
  }
  return offset;
}

function keyText(key: unknown): string | undefined {
  if (key !== null && typeof key === 'object' && 'value' in key) return String(key.value);
  return undefined;
}

function startOf(node: unknown): number | undefined {
  if (node === null || typeof node !== 'object' || !('range' in node)) return undefined;
  const range = node.range;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : undefined;
}

/** yaml's pretty messages end in " at line N, column M:" and a code frame; the issue carries the position. */
function stripLocation(message: string): string {
  const first = message.split('\n')[0] ?? message;
  const at = first.search(/ at line \d+, column \d+:/);
  return yamlErrorMessage((at >= 0 ? first.slice(0, at) : first).trim());
}

/** An error at a key (`key: true`) or value of a YAML document, with its line and column when the path is in it. */
export function issueAt(
  file: string,
  yaml: ParsedYaml,
  where: ReadonlyArray<PropertyKey>,
  message: string,
  key: boolean,
): ValidationIssue {
  const pos = yaml.locate(where, { key });
  const formatted = formatPath(where);
  return {
    file,
    ...(pos ? { line: pos.line, column: pos.column } : {}),
    ...(formatted !== '' ? { path: formatted } : {}),
    message,
    severity: 'error',
  };
}
