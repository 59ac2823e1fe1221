/**
 * Where a prd.json's stories and branch name start, found in one pass over
 * text that `JSON.parse` has already accepted. A syntax tree of a large PRD
 * (jsonc-parser's, a node object per value) costs more to build and collect
 * than everything else ralph does with the file, while a valid file only
 * needs these offsets; the tree is built when an issue has to be located.
 */
export interface TopOffsets {
  /** Offset of each element of the top-level `userStories` array, when it is an array. */
  stories: number[] | undefined;
  /** Offset of the top-level `branchName` value. */
  branchName: number | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The offset just past the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The offsets, or undefined when the top level is not an object or names
 * `userStories` or `branchName` twice: `JSON.parse` keeps the last of
 * duplicate keys where a path lookup in the tree finds the first, so such a
 * file takes the tree's way, as before.
 */
export function topOffsets(text: string): TopOffsets | undefined {
  let i = nextNonSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b /* { */) return undefined;
  const found: TopOffsets = { stories: undefined, branchName: undefined };
  const seen = new Set<string>();
  // Inside the top-level object: key, colon, value, then a comma or the end.
  i = nextNonSpace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i);
    const raw = text.slice(i + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
    const valueAt = nextNonSpace(text, nextNonSpace(text, keyEnd) + 1);
    if (key === 'userStories' || key === 'branchName') {
      if (seen.has(key)) return undefined;
      seen.add(key);
    }
    if (key === 'branchName') found.branchName = valueAt;
    if (key === 'userStories' && text.charCodeAt(valueAt) === 0x5b /* [ */) {
      found.stories = elementOffsets(text, valueAt);
    }
    i = nextNonSpace(text, valueEnd(text, valueAt));
    if (text.charCodeAt(i) !== 0x2c /* , */) break;
    i = nextNonSpace(text, i + 1);
  }
  return found;
}

/** The offset just past the value that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first !== 0x5b /* [ */ && first !== 0x7b /* { */) {
    // A number or a literal runs to the next delimiter.
    let i = start;
    while (i < text.length && !/[\s,\]}]/.test(text.charAt(i))) i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i) - 1;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** The offsets of the elements of the array that opens at `open`. */
function elementOffsets(text: string, open: number): number[] {
  const offsets: number[] = [];
  let i = nextNonSpace(text, open + 1);
  while (i < text.length && text.charCodeAt(i) !== 0x5d /* ] */) {
    offsets.push(i);
    i = nextNonSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== 0x2c) break;
    i = nextNonSpace(text, i + 1);
  }
  return offsets;
}
