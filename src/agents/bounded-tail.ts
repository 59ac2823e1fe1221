/** Keeps the last `maxChars` of a text stream (an agent's stderr). */
export class BoundedTail {
  private text = '';
  private dropped = 0;

  constructor(private readonly maxChars: number) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.maxChars) {
      this.dropped += this.text.length - this.maxChars;
      this.text = this.text.slice(-this.maxChars);
    }
  }

  toString(): string {
    return this.dropped > 0 ? `[… ${this.dropped} earlier chars dropped]\n${this.text}` : this.text;
  }
}
