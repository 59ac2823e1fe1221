/**
 * Terminal input as key presses. Ink hands over what arrived in one read:
 * keys typed fast, a held key's repeats, or two keys sent together come as
 * one string (`jjjjj`, `++`). Each of them is a key press of its own.
 */
import type { KeyPress } from './keys.js';

/** The flags Ink parsed for the input (a subset of Ink's Key). */
export interface KeyFlags {
  upArrow: boolean;
  downArrow: boolean;
  leftArrow: boolean;
  rightArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  return: boolean;
  escape: boolean;
  ctrl: boolean;
  backspace: boolean;
  delete: boolean;
}

function single(input: string, key: KeyFlags): KeyPress {
  return {
    input,
    up: key.upArrow,
    down: key.downArrow,
    left: key.leftArrow,
    right: key.rightArrow,
    pageUp: key.pageUp,
    pageDown: key.pageDown,
    enter: key.return,
    escape: key.escape,
    // Most terminals send DEL for Backspace, which Ink reports as `delete`.
    backspace: key.backspace || key.delete,
    ctrl: key.ctrl,
  };
}

/** One character of a run of keys, read the way Ink reads a key on its own. */
function fromChar(char: string): KeyPress {
  if (char === '\r' || char === '\n') return { input: '', enter: true };
  if (char === '\x7f' || char === '\b') return { input: '', backspace: true };
  if (char === '\x1b') return { input: '', escape: true };
  const code = char.codePointAt(0) ?? 0;
  // Ctrl-A … Ctrl-Z arrive as 0x01 … 0x1a.
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), ctrl: true };
  return { input: char };
}

/** `typing`: a text field has the keys, where a paste stays one piece of text. */
export function keyPresses(input: string, key: KeyFlags, typing = false): KeyPress[] {
  const chars = [...input];
  const special =
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.pageUp ||
    key.pageDown ||
    key.return ||
    key.escape ||
    key.ctrl;
  if (chars.length <= 1 || special || typing) return [single(input, key)];
  return chars.map(fromChar);
}
