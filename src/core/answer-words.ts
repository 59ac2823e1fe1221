/**
 * `ralph answer [target] <id> <text...>`: the words of the command line as a
 * target, a question id and the answer. The answer may be unquoted (`ralph
 * answer US-002 use NFD`): the first word is a target only when it names one
 * (`isTarget`) and words are left for an id and a text; everything after the
 * id is the answer, joined with single spaces as the shell split it.
 */
export interface AnswerWords {
  target?: string;
  id: string;
  text: string;
}

export function splitAnswerWords(
  words: readonly string[],
  isTarget: (word: string) => boolean,
): AnswerWords | null {
  const [first, second, ...rest] = words;
  if (first === undefined || second === undefined) return null;
  if (rest.length > 0 && isTarget(first)) {
    return { target: first, id: second, text: rest.join(' ') };
  }
  return { id: first, text: [second, ...rest].join(' ') };
}
