import { type Document, isAlias, isCollection, isPair } from 'yaml';

/** A config or front matter deeper than this is a mistake or an attack; real ones are 3–4 levels deep. */
export const MAX_YAML_DEPTH = 64;
/** How many nodes aliases may expand to in total; a few anchors reused a few times stay far below. */
export const MAX_YAML_ALIAS_NODES = 1000;

export type YamlValue = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

/** The parser's message, in words, for the limits it hits itself. */
export function yamlErrorMessage(message: string): string {
  if (/maximum call stack size exceeded/i.test(message)) {
    return `the YAML is nested too deeply (more than ${MAX_YAML_DEPTH} levels make no sense here)`;
  }
  return message;
}

/**
 * The document as plain data, refusing what would exhaust the stack or the
 * memory on the way: nesting past `MAX_YAML_DEPTH` (found with an explicit
 * stack, so the check itself cannot overflow) and aliases that expand past
 * `MAX_YAML_ALIAS_NODES` (a "billion laughs" document).
 */
export function yamlToValue(doc: Document.Parsed): YamlValue {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  let firstAlias: number | undefined;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth } = top;
    if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    } else if (isCollection(node)) {
      if (depth >= MAX_YAML_DEPTH) {
        return {
          ok: false,
          offset: node.range?.[0] ?? 0,
          message: `the YAML is nested more than ${MAX_YAML_DEPTH} levels deep`,
        };
      }
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
    } else if (isAlias(node)) {
      firstAlias = Math.min(firstAlias ?? Number.POSITIVE_INFINITY, node.range?.[0] ?? 0);
    }
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_NODES }) };
  } catch (error) {
    const message =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `YAML aliases here expand to more than ${MAX_YAML_ALIAS_NODES} nodes (an alias bomb?); write the values out`
        : error instanceof RangeError
          ? 'the YAML is nested too deeply'
          : `cannot read the YAML: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, offset: firstAlias ?? 0, message };
  }
}
