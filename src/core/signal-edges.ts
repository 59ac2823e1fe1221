/** What can start a signal. */
export const Edge = {
  Open: 0,
  Close: 1,
  Complete: 2,
  Legacy: 3,
} as const;

export type Edge = (typeof Edge)[keyof typeof Edge];

/**
 * The places in a text where a signal could start, in order: `<ralph>`,
 * `</ralph>`, `<ralph-complete`, `<promise>`, `[DONE]` or `[FAIL]`, in any
 * ASCII case (as the patterns' `i` flag reads them). Hand-written, with no
 * match object per find, and each of `<` and `[` searched for once: this
 * runs over every byte of text an agent writes.
 */
export class SignalEdges {
  /** The last one found: where it starts, what it is, and how long it is. */
  at = -1;
  kind: Edge = Edge.Open;
  length = 0;
  private angle: number;
  private bracket: number;

  constructor(private readonly text: string) {
    this.angle = text.indexOf('<');
    this.bracket = text.indexOf('[');
  }

  /** Moves to the next one after the last; false when there is none. */
  next(): boolean {
    const text = this.text;
    const from = this.at === -1 ? 0 : this.at + this.length;
    if (this.angle !== -1 && this.angle < from) this.angle = text.indexOf('<', from);
    if (this.bracket !== -1 && this.bracket < from) this.bracket = text.indexOf('[', from);
    while (this.angle !== -1 || this.bracket !== -1) {
      if (this.angle !== -1 && (this.bracket === -1 || this.angle < this.bracket)) {
        const at = this.angle;
        this.angle = text.indexOf('<', at + 1);
        if (isAt(text, at + 1, '/ralph>')) return this.found(at, Edge.Close, 8);
        if (isAt(text, at + 1, 'ralph>')) return this.found(at, Edge.Open, 7);
        if (isAt(text, at + 1, 'ralph-complete')) return this.found(at, Edge.Complete, 15);
        if (isAt(text, at + 1, 'promise>')) return this.found(at, Edge.Complete, 9);
      } else {
        const at = this.bracket;
        this.bracket = text.indexOf('[', at + 1);
        if (isAt(text, at + 1, 'done]') || isAt(text, at + 1, 'fail]')) return this.found(at, Edge.Legacy, 6);
      }
    }
    return false;
  }

  private found(at: number, kind: Edge, length: number): true {
    this.at = at;
    this.kind = kind;
    this.length = length;
    return true;
  }
}

/** Whether `word` (lower-case ASCII) is at `at`, ignoring ASCII case. */
function isAt(text: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const want = word.charCodeAt(i);
    const code = text.charCodeAt(at + i);
    if (code !== want && !(want >= 0x61 && want <= 0x7a && code === want - 0x20)) return false;
  }
  return true;
}
