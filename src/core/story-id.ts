import { CONTROL } from './ref-name.js';

export const MAX_STORY_ID_LENGTH = 100;

/**
 * Characters a story id cannot hold and still round-trip: `<` `>` end the
 * signal tag, `:` separates the id from a FAIL reason, a backtick starts a
 * code span the signal reader skips, `/` `\` split paths and refs, and
 * `~ ^ ? * [` are not allowed in git refs.
 */
const FORBIDDEN = /[<>:`/\\~^?*[\]"|]/;

/**
 * Why `id` cannot be a story id, or undefined when it can. An id travels
 * through the agent's signal (`<ralph>DONE <id></ralph>`, read up to the
 * first space), git refs (rescue refs, story branches) and file names, so it
 * must survive all three unchanged.
 */
export function storyIdProblem(id: string): string | undefined {
  if (id === '') return 'it is empty';
  if (id.length > MAX_STORY_ID_LENGTH) {
    return `it is ${id.length} characters long (at most ${MAX_STORY_ID_LENGTH})`;
  }
  if (/\s/.test(id)) {
    return 'it contains whitespace, and the DONE signal reads the id only up to the first space';
  }
  if (CONTROL.test(id) || /\p{Cf}/u.test(id)) return 'it contains a control or invisible character';
  const forbidden = FORBIDDEN.exec(id)?.[0];
  if (forbidden !== undefined) {
    return `it contains "${forbidden}", which a signal, a git ref or a file name cannot carry unchanged`;
  }
  if (id.includes('..')) return 'it contains "..", which git refs and paths refuse';
  if (id.includes('@{')) return 'it contains "@{", which git reads as a revision';
  if (id.startsWith('-') || id.startsWith('.')) return `it starts with "${id[0]}"`;
  if (id.endsWith('.') || id.endsWith('.lock')) return 'it ends with "." or ".lock"';
  return undefined;
}
