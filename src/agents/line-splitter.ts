/**
 * Splits a byte stream into lines without ever holding more than the cap:
 * a longer line is cut to a short preview and flagged.
 */

export interface SplitLine {
  text: string;
  /** The line was longer than the cap; `text` is its beginning only. */
  truncated: boolean;
  /** The line's full length in bytes, without the newline. */
  bytes: number;
}

const PREVIEW_BYTES = 2048;
const NEWLINE = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set once the current line passed the cap: only its preview is kept, the rest is counted. */
  private preview: Buffer | undefined;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): SplitLine[] {
    const lines: SplitLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (this.size === 0 && nl - start <= this.maxLineBytes) {
        // The usual case, a whole line inside one chunk: decoded in place, nothing copied.
        lines.push({ text: decode(chunk, start, nl), truncated: false, bytes: nl - start });
      } else {
        this.append(chunk.subarray(start, nl));
        lines.push(this.take());
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
    return lines;
  }

  /** The last line when the stream ended without a newline. */
  end(): SplitLine[] {
    return this.size > 0 ? [this.take()] : [];
  }

  private append(piece: Buffer): void {
    this.size += piece.length;
    if (this.preview !== undefined) return;
    this.parts.push(piece);
    if (this.size > this.maxLineBytes) {
      this.preview = Buffer.concat(this.parts).subarray(0, Math.min(PREVIEW_BYTES, this.maxLineBytes));
      this.parts = [];
    }
  }

  private take(): SplitLine {
    const bytes = this.preview ?? Buffer.concat(this.parts);
    const line: SplitLine = {
      text: decode(bytes, 0, bytes.length),
      truncated: this.preview !== undefined,
      bytes: this.size,
    };
    this.parts = [];
    this.size = 0;
    this.preview = undefined;
    return line;
  }
}

/** The line's text without the CR of a CRLF ending. */
function decode(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === CR ? end - 1 : end);
}
