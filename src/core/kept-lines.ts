/**
 * Whether a conflict resolution kept what the stories that landed meanwhile
 * added, and left no conflict marker behind. Pure: the caller reads the
 * diffs and files from git.
 */

/** A line a landed story added that the resolved result no longer has. */
export interface DroppedLine {
  file: string;
  line: string;
}

/** The lines a unified diff (`git diff -U0 a b -- file`) adds, without their `+`. */
export function addedLinesOf(diff: string): string[] {
  return diff
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .map((l) => l.slice(1));
}

/**
 * A line's words and symbols in order: runs of letters, digits and `_`, and
 * each other visible character on its own. Spacing is not part of it.
 */
function tokensOf(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** Whether `inner` appears in `outer` in order, gaps allowed. */
function isSubsequence(inner: readonly string[], outer: readonly string[]): boolean {
  let i = 0;
  for (const token of outer) if (token === inner[i]) i++;
  return i === inner.length;
}

/**
 * The landed lines the result dropped. A landed line is kept when the
 * resolved file still has it, or has a line that extends it in place: its
 * words and symbols, in order, with more around or between them
 * (`exports: a, b` kept as `exports: a, b, c`; `"b": 2` as `"b": 2,`). A file
 * the result deleted (`null`) drops every landed line. Blank lines do not count.
 */
export function droppedLines(
  landed: readonly { file: string; added: readonly string[] }[],
  result: ReadonlyMap<string, readonly string[] | null>,
): DroppedLine[] {
  const dropped: DroppedLine[] = [];
  for (const { file, added } of landed) {
    if (!result.has(file)) continue;
    const lines = result.get(file) ?? [];
    const resultTokens = lines.map(tokensOf);
    const verbatim = new Set(lines.map((l) => l.trim()));
    for (const line of added) {
      const wanted = tokensOf(line);
      if (wanted.length === 0 || verbatim.has(line.trim())) continue;
      if (!resultTokens.some((tokens) => isSubsequence(wanted, tokens))) dropped.push({ file, line });
    }
  }
  return dropped;
}

// `=======` alone is also a Markdown heading's underline: the opening and closing markers are what tell.
const MARKER = /^(<{7}|>{7})( |$)/;

/** The 1-based numbers of the lines that open or close a conflict (`<<<<<<< …`, `>>>>>>> …`). */
export function conflictMarkerLines(text: string): number[] {
  const found: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (MARKER.test(line.replace(/\r$/, ''))) found.push(i + 1);
  });
  return found;
}
