// The block chunker (reference §8, "EmbeddedBlockChunker"): fed the text deltas of a streamed
// reply, it emits blocks between minChars and maxChars, breaking at the best boundary it can find
// and never inside a fenced code block unless a block would otherwise pass maxChars.
import { BreakScanner, type FenceSpan } from "./break-scanner.js";
import { LF, isBlank, isHighSurrogate, isWhitespaceCode, stripLeadingBlankLines, stripLeadingNewlines } from "./chars.js";

/** Where a block prefers to end: paragraph > newline > sentence, then whitespace, then a hard cut. */
export type BreakPreference = "paragraph" | "newline" | "sentence";
/** `length` fills blocks up to maxChars; `newline` also ends a block at every blank line. */
export type ChunkMode = "length" | "newline";

/** The break preferences, best first. */
export const BREAK_PREFERENCES: readonly BreakPreference[] = ["paragraph", "newline", "sentence"];

/** Options of `BlockChunker`. */
export interface BlockChunkerOptions {
  /** Never emit a block shorter than this unless forced (floored, at least 1, at most maxChars). */
  minChars: number;
  /** Never emit a block longer than this, added fence lines included (floored, at least 1). */
  maxChars: number;
  /** Where the break search starts (default "paragraph"). */
  breakPreference?: BreakPreference;
  /**
   * "newline" emits each complete paragraph (text before a blank line outside fences) as soon as
   * it is complete, whatever its length versus minChars; a paragraph longer than maxChars is still
   * split by the normal rules. Default "length".
   */
  chunkMode?: ChunkMode;
  /** The channel's message size limit; maxChars is clamped to it. */
  textChunkLimit?: number;
  /**
   * Prefer breaks outside parentheses, so `[a link](with spaces)` or a parenthetical stays whole
   * when possible (outbound chunking). Default false.
   */
  keepParenthesesWhole?: boolean;
  /**
   * Fill every block: end it at the last break of the best kind within maxChars, and only once
   * the buffer holds a full window (or at the flush). For splitting a complete text (`chunkText`).
   * Default false: in chunkMode "length" a break of the preferred kind at or after minChars ends
   * a block as soon as it is complete (the first one), so block replies leave paragraph by
   * paragraph; lesser breaks still wait for a full window.
   */
  fill?: boolean;
}

/** Options of `BlockChunker.flush`. */
export interface FlushOptions {
  /**
   * Emit everything buffered (default true): use at `text_end` / `message_end`. With false the
   * call behaves like a push of nothing.
   */
  force?: boolean;
}

interface BreakChoice {
  /** Buffer offset where the block ends. */
  index: number;
  /** Set when the block ends inside this fence: close it here, reopen it in the next block. */
  fence?: FenceSpan;
}

/**
 * Characters scanned past maxChars: enough to decide any fence line that starts before it and a
 * sentence end at maxChars. A full pick that is not forced waits until they have arrived, so it
 * sees the same window however the deltas were split.
 */
const SCAN_AHEAD = 8;
const NOTHING: readonly string[] = Object.freeze([]);

/** The last value v in the ascending array with lo <= v <= hi, or -1. */
function lastInRange(values: readonly number[], lo: number, hi: number): number {
  if (hi < lo) return -1;
  let left = 0;
  let right = values.length - 1;
  let found = -1;
  while (left <= right) {
    const mid = (left + right) >> 1;
    if (values[mid]! <= hi) {
      found = mid;
      left = mid + 1;
    } else right = mid - 1;
  }
  if (found === -1) return -1;
  const v = values[found]!;
  return v >= lo ? v : -1;
}

function toPositiveInt(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/**
 * Streaming block chunker. Feed deltas with `push`, call `flush()` (forced) at the end of a text
 * block or message; both return the blocks completed by the call, in order.
 *
 * A block ends at the first break of the preferred kind (breakPreference) at or after minChars
 * as soon as that break is complete. Without one, a lesser break (newline, sentence, whitespace,
 * a hard cut) is taken only once the buffer holds a full window (maxChars plus a few characters
 * of lookahead), the best one in it; a buffer that never fills a window leaves whole at the
 * flush. So a space past minChars is never taken while a paragraph end may still follow, and the
 * blocks are the same however the text was split into deltas (pushed whole, then flushed, it
 * gives the same blocks as streamed in 20-character deltas). chunkMode "newline" emits each
 * paragraph as soon as it is complete instead; `fill` waits for full windows only.
 *
 * Runs in O(n) overall: every character is scanned once (plus a bounded rescan of the remainder
 * after each emitted block), and the scanner keeps the best candidate of each kind as it goes.
 *
 * @example
 * const chunker = new BlockChunker({ minChars: 800, maxChars: 1200, textChunkLimit: 4000 });
 * for await (const delta of deltas) for (const block of chunker.push(delta)) send(block);
 * for (const block of chunker.flush()) send(block);
 */
export class BlockChunker {
  /** Effective lower bound. */
  readonly minChars: number;
  /** Effective upper bound (after the textChunkLimit clamp). */
  readonly maxChars: number;
  /** Where blocks prefer to end. */
  readonly breakPreference: BreakPreference;
  /** `length` or `newline` (see `BlockChunkerOptions.chunkMode`). */
  readonly chunkMode: ChunkMode;

  /** The working part of the buffer: every scan and cut happens here. */
  #buf = "";
  /**
   * Text after #buf that is not looked at yet (only after a delta far longer than maxChars). While
   * it is non-empty #buf holds at least 2 * scanLimit characters; it keeps the cost of a huge push
   * linear, since no string longer than a few windows is ever copied per block.
   */
  #tail = "";
  /** Set after a block was cut off an otherwise empty buffer: newlines that follow are dropped. */
  #afterBreak = false;
  readonly #scanner: BreakScanner;
  readonly #scanLimit: number;
  readonly #parenAware: boolean;
  /** End a block at the first preferred break past minChars without waiting for a full window. */
  readonly #eager: boolean;
  readonly #text = (): string => this.#buf;

  constructor(options: BlockChunkerOptions) {
    const limit = toPositiveInt(options.textChunkLimit, Number.POSITIVE_INFINITY);
    this.maxChars = Math.min(toPositiveInt(options.maxChars, 1200), limit);
    this.minChars = Math.min(toPositiveInt(options.minChars, 800), this.maxChars);
    this.breakPreference = BREAK_PREFERENCES.includes(options.breakPreference as BreakPreference)
      ? (options.breakPreference as BreakPreference)
      : "paragraph";
    this.chunkMode = options.chunkMode === "newline" ? "newline" : "length";
    this.#parenAware = options.keepParenthesesWhole === true;
    this.#eager = options.fill !== true && this.chunkMode === "length";
    this.#scanLimit = this.maxChars + SCAN_AHEAD;
    this.#scanner = new BreakScanner({
      maxChars: this.maxChars,
      trackBoundaries: this.chunkMode === "newline",
      parenAware: this.#parenAware,
      firstFrom: this.minChars,
    });
  }

  /** Text received but not emitted yet. */
  get bufferedText(): string {
    return this.#buf + this.#tail;
  }

  /** True while text waits in the buffer. */
  get hasBuffered(): boolean {
    return this.#buf.length > 0;
  }

  /** Characters buffered in all. */
  #size(): number {
    return this.#buf.length + this.#tail.length;
  }

  /** Appends a delta and returns the blocks it completed (often none). */
  push(delta: string): readonly string[] {
    if (this.#afterBreak) {
      // The break already separated the blocks; newlines arriving right after it would only
      // start the next block with blank lines (it depends on where the deltas happen to split).
      delta = stripLeadingNewlines(delta);
      this.#afterBreak = delta.length === 0;
    }
    if (!delta) return NOTHING;
    if (this.#tail.length > 0) {
      this.#tail += delta;
      return this.#drain(false);
    }
    const start = this.#buf.length;
    const room = 4 * this.#scanLimit - start;
    if (delta.length > room) {
      const cut = Math.max(0, room);
      this.#tail = delta.slice(cut);
      delta = delta.slice(0, cut);
    }
    this.#buf += delta;
    const scanner = this.#scanner;
    if (delta && scanner.scanned === start && start < this.#scanLimit) {
      // Scan the delta itself (a flat string) rather than the concatenated buffer.
      scanner.scan(delta, 0, Math.min(delta.length, this.#scanLimit - start), this.#text);
    }
    return this.#drain(false);
  }

  /** Emits what the buffer holds (all of it when forced, the default), split to fit maxChars. */
  flush(options: FlushOptions = {}): readonly string[] {
    return this.#drain(options.force ?? true);
  }

  /** Drops the buffer without emitting it. */
  reset(): void {
    this.#tail = "";
    this.#replace("");
  }

  /** Makes `text` the new start of the buffer (the tail still follows it). */
  #replace(text: string, afterBreak = false): void {
    this.#buf = text;
    this.#scanner.reset();
    const tail = this.#tail;
    if (tail.length > 0 && text.length < 2 * this.#scanLimit) {
      const take = 4 * this.#scanLimit - text.length;
      this.#buf = text + tail.slice(0, take);
      this.#tail = tail.length > take ? tail.slice(take) : "";
    }
    this.#afterBreak = afterBreak && this.#buf.length === 0;
  }

  #ensureScanned(): void {
    const target = Math.min(this.#buf.length, this.#scanLimit);
    const scanner = this.#scanner;
    if (scanner.scanned < target) scanner.scan(this.#buf, scanner.scanned, target, this.#text);
  }

  /** True while the buffer is shorter than the window a pick looks at (more text may change it). */
  #windowOpen(): boolean {
    return this.#size() < this.#scanLimit;
  }

  #drain(force: boolean): readonly string[] {
    if (this.#buf.length === 0) return NOTHING;
    if (!force && this.chunkMode === "length" && this.#size() <= this.minChars) return NOTHING;
    const out: string[] = [];
    if (this.chunkMode === "newline" && !force) {
      this.#drainParagraphs(out);
      return out;
    }
    while (this.#buf.length > 0) {
      if (force && this.#size() <= this.maxChars) {
        if (!isBlank(this.#buf)) out.push(this.#buf);
        this.#replace("");
        break;
      }
      const choice = this.#firstPreferred() ?? (force || !this.#windowOpen() ? this.#pick(force) : null);
      if (choice === null) break;
      this.#emit(choice, out);
    }
    return out;
  }

  /**
   * chunkMode "newline": one block per complete paragraph, maxChars still enforced (a paragraph
   * that does not fit falls back to the full pick with minChars 1). A separator at the very start
   * of the buffer (blank lines between two text blocks) is not a paragraph end: it stays in front
   * of the next paragraph.
   */
  #drainParagraphs(out: string[]): void {
    while (this.#buf.length > 0) {
      this.#ensureScanned();
      const scanner = this.#scanner;
      let k = 0;
      while (k < scanner.bound.length && scanner.bound[k]! < scanner.leadingBlank) k++;
      const boundary = scanner.bound[k];
      if (boundary !== undefined && boundary <= this.maxChars) {
        const block = this.#buf.slice(0, boundary);
        const rest = stripLeadingBlankLines(this.#buf.slice(scanner.boundEnd[k]));
        if (!isBlank(block)) out.push(block);
        this.#replace(rest, true);
        continue;
      }
      if (this.#windowOpen()) return;
      const choice = this.#pick(false, 1);
      if (choice === null) return;
      this.#emit(choice, out);
    }
  }

  /** The first break of the preferred kind at or after minChars (unless filling), or null. */
  #firstPreferred(): BreakChoice | null {
    if (!this.#eager || this.#size() <= this.minChars) return null;
    this.#ensureScanned();
    const scanner = this.#scanner;
    const index =
      this.breakPreference === "paragraph"
        ? scanner.firstParagraph
        : this.breakPreference === "newline"
          ? scanner.firstNl
          : scanner.firstSentence;
    return index >= 0 ? { index } : null;
  }

  /** The full break pick over the window [0, maxChars) with candidates at or after minChars. */
  #pick(force: boolean, min = this.minChars): BreakChoice | null {
    this.#ensureScanned();
    const scanner = this.#scanner;
    const length = this.#size();
    if (force && scanner.scanned === length) scanner.finalize(length);
    const max = this.maxChars;
    const preference = this.breakPreference;
    // The scanner keeps the last candidate of each kind inside the window [0, maxChars).
    if (preference === "paragraph" && scanner.lastParagraph >= min) return { index: scanner.lastParagraph };
    if (preference !== "sentence" && scanner.lastNl >= min) return { index: scanner.lastNl };
    // A sentence end at or after minChars; the break is the whitespace after it.
    if (preference !== "newline" && scanner.lastSentence >= min + 1) return { index: scanner.lastSentence };
    if (preference === "newline" && length < max) return null;
    if (scanner.lastWs >= min) return { index: scanner.lastWs };
    if (this.#parenAware) {
      if (scanner.lastNlDeep >= min) return { index: scanner.lastNlDeep };
      if (scanner.lastWsDeep >= min) return { index: scanner.lastWsDeep };
    }
    if (length >= max) return this.#hardCut(force, min);
    return null;
  }

  /** A cut at maxChars; inside a fence, a close-and-reopen that keeps the block within maxChars. */
  #hardCut(force: boolean, min: number): BreakChoice | null {
    const scanner = this.#scanner;
    const max = this.maxChars;
    // A line that began before maxChars may still turn into a fence line: wait for more text.
    if (!force && scanner.isUndecidedAt(max, this.#size())) return null;
    const span = scanner.spanContaining(max);
    if (span === null) return { index: this.#cutBeforeSurrogate(max, 1) };
    const closeLength = span.close.length;
    if (span.openLineEnd >= 0) {
      const contentStart = span.openLineEnd + 1;
      const last = max - 1 - closeLength; // the block is buf[0:cut] + "\n" + close
      const lineEnd = lastInRange(scanner.lf, Math.max(contentStart, min - 1 - closeLength), last);
      if (lineEnd >= 0) return { index: lineEnd + 1, fence: span };
      if (last > contentStart) return { index: this.#cutBeforeSurrogate(last, contentStart + 1), fence: span };
    }
    // No room for any fenced content next to the close/reopen lines: end the block before the fence,
    // or (a fence at the very start that cannot fit at all) cut it without repair.
    if (span.start > 0) return { index: span.start };
    return { index: this.#cutBeforeSurrogate(max, 1) };
  }

  /** `at`, or one less when that would separate a surrogate pair (never below `floor`). */
  #cutBeforeSurrogate(at: number, floor: number): number {
    return at - 1 >= floor && isHighSurrogate(this.#buf.charCodeAt(at - 1)) ? at - 1 : at;
  }

  /**
   * Emits buf[0:index] (a blank block is dropped). The rest starts after the break as after any
   * break, so a dropped blank block takes no text that a later delta would have kept.
   */
  #emit(choice: BreakChoice, out: string[]): void {
    const buf = this.#buf;
    const index = choice.index;
    const block = buf.slice(0, index);
    const fence = choice.fence;
    if (fence !== undefined) {
      out.push(block + (block.charCodeAt(block.length - 1) === LF ? "" : "\n") + fence.close);
      this.#replace(`${fence.openLine}\n${buf.slice(index)}`);
      return;
    }
    if (!isBlank(block)) out.push(block);
    const next = index < buf.length && isWhitespaceCode(buf.charCodeAt(index)) ? index + 1 : index;
    this.#replace(stripLeadingNewlines(buf.slice(next)), true);
  }
}
