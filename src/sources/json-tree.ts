import { findNodeAtLocation, type Node, type ParseError, type ParseOptions, parseTree } from 'jsonc-parser';
import { positionAt } from './text-position.js';

/** Strict JSON: no comments, no trailing commas. */
export const strictJson: ParseOptions = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
};

export function parseJsonTree(text: string): { root: Node | undefined; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, strictJson);
  return { root, errors };
}

/**
 * Where a JSON path is in the text. A path that does not exist (a missing
 * property) is placed at its nearest existing ancestor.
 */
export function locateJsonPath(
  text: string,
  root: Node | undefined,
  path: readonly (string | number)[],
): { line: number; column: number } | undefined {
  if (!root) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node) return positionAt(text, node.offset);
  }
  return undefined;
}

/** The object node of the story with this id inside `userStories`, and its index. */
export function findStoryNode(
  root: Node | undefined,
  storyId: string,
): { node: Node; index: number } | undefined {
  const stories = root ? findNodeAtLocation(root, ['userStories']) : undefined;
  if (stories?.type !== 'array') return undefined;
  const index = (stories.children ?? []).findIndex((child) => {
    const id = findNodeAtLocation(child, ['id']);
    return id?.type === 'string' && id.value === storyId;
  });
  const node = stories.children?.[index];
  return node ? { node, index } : undefined;
}

/** Deeper than this, a task file is not a task file; the JSON reader recurses per level. */
export const MAX_JSON_DEPTH = 256;

/**
 * The offset of the first `[` or `{` that opens level `max + 1`, or
 * undefined. One pass over the text, skipping strings, so a 10,000-deep
 * document is refused before anything recursive reads it.
 */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */) i++;
        else if (c === 0x22) break;
      }
    } else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      depth++;
      if (depth > max) return i;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) {
      depth--;
    }
  }
  return undefined;
}
