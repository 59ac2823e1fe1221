/**
 * A command as one line a person can read and paste into a POSIX shell.
 * For showing only: ralph never runs a command through a shell it built.
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellWord(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export const shellLine = (words: readonly string[]): string => words.map(shellWord).join(' ');
