/**
 * Codex reports a command as the shell-quoted argv it ran, e.g.
 * `/bin/bash -lc 'git commit -m "x"'`. For display, ralph shows the command
 * the model asked for: the script given to `bash -lc`.
 */

/** POSIX shell word splitting with quotes and backslashes; undefined on an unterminated quote. */
export function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text.charAt(i) !== '"') {
        const next = text.charAt(i + 1);
        if (text.charAt(i) === '\\' && '"\\$`\n'.includes(next) && next !== '') {
          word += next;
          i += 2;
        } else {
          word += text.charAt(i);
          i += 1;
        }
      }
      if (i >= text.length) return undefined;
      i += 1;
    } else if (c === '\\') {
      word += text.charAt(i + 1);
      i += 2;
    } else {
      word += c;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `/bin/bash -lc 'echo hi'` -> `echo hi`; anything else unchanged. */
export function unwrapShell(command: string): string {
  const words = shellWords(command);
  if (words?.length !== 3) return command;
  const [shell, flag, script] = words;
  if (!/(?:^|\/)(?:ba|z|da)?sh$/.test(shell ?? '') || !/^-l?c$/.test(flag ?? '')) return command;
  return script ?? command;
}
