/**
 * Keeps the first and last halves of a stream of text up to `maxChars` in total and counts what
 * falls in between, so a huge output still shows how it started and how it ended.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(readonly maxChars: number) {
    this.headMax = Math.ceil(maxChars / 2);
    this.tailMax = Math.floor(maxChars / 2);
  }

  push(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.headMax) {
      const take = Math.min(this.headMax - this.head.length, rest.length);
      this.head += rest.slice(0, take);
      rest = rest.slice(take);
    }
    if (rest.length > 0) {
      this.tail += rest;
      // Trim lazily so long outputs do not copy the tail on every chunk.
      if (this.tail.length > 2 * this.tailMax + 4096) this.tail = this.tail.slice(-this.tailMax);
    }
  }

  /** Characters received so far. */
  get length(): number {
    return this.total;
  }

  /** Characters dropped from the middle. */
  get omitted(): number {
    return Math.max(0, this.total - this.headMax - this.tailMax);
  }

  /** The kept text; `notice(omitted)` is placed where the middle was cut. */
  render(notice: (omitted: number) => string): string {
    if (this.omitted === 0) return this.head + this.tail;
    return this.head + notice(this.omitted) + (this.tailMax > 0 ? this.tail.slice(-this.tailMax) : "");
  }
}

/**
 * The output log of a background job: the most recent `maxChars` characters, plus a read cursor
 * so each poll returns only what arrived since the previous one.
 */
export class JobLog {
  private buffer = "";
  private start = 0;
  private total = 0;
  private cursor = 0;

  constructor(readonly maxChars: number) {}

  append(text: string): void {
    this.buffer += text;
    this.total += text.length;
    if (this.buffer.length > this.maxChars * 2 + 4096) this.trim();
  }

  private trim(): void {
    const drop = this.buffer.length - this.maxChars;
    if (drop > 0) {
      this.buffer = this.buffer.slice(drop);
      this.start += drop;
    }
  }

  /** Whether output arrived since the last read. */
  get hasUnread(): boolean {
    return this.total > this.cursor;
  }

  /** Everything since the previous read (at most `maxChars`), and how much was lost before it. */
  readNew(): { text: string; dropped: number } {
    this.trim();
    const from = Math.max(this.cursor, this.start);
    const dropped = from - this.cursor;
    const text = this.buffer.slice(from - this.start);
    this.cursor = this.total;
    return { text, dropped };
  }
}
