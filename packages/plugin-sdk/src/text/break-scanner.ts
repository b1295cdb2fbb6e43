// Incremental scanner behind the block chunker. It reads each character of the pending buffer
// once, tracks Markdown code fences line by line, and keeps, for every kind of break, the last
// fence-safe position inside the window [0, maxChars] — so the chunker's choice costs O(1) per
// delta instead of a rescan of the buffer.
//
// Fence rules (reference §8): a line with up to 3 spaces then a run of 3+ backticks or tildes opens
// a fence; a line with the same character, a run at least as long and only spaces or tabs after it
// (or a CR) closes it; an unclosed fence runs to the end. A position i is fence-safe unless
// start < i < end for some fence span. Candidates are recorded only once their safety is known:
// a line that could still turn into a fence opener ("  ``") holds its positions back.
import { BACKTICK, CR, LF, LPAREN, RPAREN, SPACE, TAB, TILDE, isSentenceEndCode, isWhitespaceCode } from "./chars.js";

/** A fenced code block in buffer coordinates. */
export interface FenceSpan {
  /** Offset of the first character of the opening line. */
  start: number;
  /** Offset of the `\n` ending the closing line (or the text end); `Infinity` while unclosed. */
  end: number;
  /** Offset of the `\n` ending the opening line; -1 while that line is incomplete. */
  openLineEnd: number;
  /** The opening line (indent, marker, info string): reopens the fence in the next chunk. */
  openLine: string;
  /** Indent plus marker: the line that closes the fence at the end of a chunk. */
  close: string;
}

const INDENT = 0; // at most 3 leading spaces so far: the line could still be a fence line
const RUN = 1; // inside a run of backticks/tildes that is not (yet) an opener
const OPENER_RUN = 2; // the marker run of a fence opener
const OPENER_REST = 3; // the info string of a fence opener
const CLOSER_REST = 4; // after a closing run: only spaces and tabs may follow
const PLAIN = 5; // an ordinary line (text outside a fence, content inside one)

export interface BreakScannerOptions {
  /** The window is [0, maxChars]: candidates after it are not kept. */
  maxChars: number;
  /** Record blank-line paragraph boundaries (for `chunkMode: "newline"`). */
  trackBoundaries: boolean;
  /** Keep candidates inside parentheses apart (outbound chunking keeps `(...)` whole). */
  parenAware: boolean;
  /**
   * Also keep the first paragraph and newline candidate at or after this offset, and the first
   * sentence end after it (the chunker's minChars: a block of the preferred kind may end there).
   */
  firstFrom: number;
}

export class BreakScanner {
  /** Number of buffer characters scanned so far. */
  scanned = 0;
  /** True once the text end was treated as the end of its last line (forced flush). */
  finalized = false;

  // The last fence-safe candidate of each kind within the window, or -1.
  /** Whitespace at or before maxChars-1 (outside parentheses when paren-aware). */
  lastWs = -1;
  /** `\n` at or before maxChars-1. */
  lastNl = -1;
  /** Whitespace right after `.`, `!` or `?`, at or before maxChars. */
  lastSentence = -1;
  /** A `\n` followed by another `\n`, at or before maxChars-2. */
  lastParagraph = -1;
  /** Whitespace / `\n` inside parentheses (paren-aware fallback). */
  lastWsDeep = -1;
  lastNlDeep = -1;
  // The first fence-safe candidate of each kind at or after `firstFrom` within the window, or -1.
  firstNl = -1;
  /** A sentence end at or after firstFrom + 1. */
  firstSentence = -1;
  firstParagraph = -1;

  /** Every `\n` position, fenced or not (splitting inside a fence prefers a line end). */
  readonly lf: number[] = [];
  /** Blank-line boundaries: the `\n` that ends a paragraph... */
  readonly bound: number[] = [];
  /** ...and the offset just after the blank line that follows it. */
  readonly boundEnd: number[] = [];
  /** Closed fence spans in order. */
  readonly spans: FenceSpan[] = [];
  /** The fence that is open at the scan position, if any. */
  open: FenceSpan | null = null;
  /** Length of the leading run of blank lines (only spaces/tabs, each ended by `\n`). */
  leadingBlank = 0;

  private readonly wsCap: number;
  private lineStart = 0;
  private phase = INDENT;
  private indent = 0;
  private runChar = 0;
  private run = 0;
  private fenceChar = 0;
  private fenceLen = 0;
  private lineBlank = true;
  private depth = 0;
  private prevCode = -1;
  private lastSafeLf = -2;
  private sawText = false;

  constructor(private readonly options: BreakScannerOptions) {
    this.wsCap = options.maxChars - 1;
  }

  /** Forgets everything: the next scan starts a new buffer at offset 0. */
  reset(): void {
    this.scanned = 0;
    this.finalized = false;
    this.lastWs = -1;
    this.lastNl = -1;
    this.lastSentence = -1;
    this.lastParagraph = -1;
    this.lastWsDeep = -1;
    this.lastNlDeep = -1;
    this.firstNl = -1;
    this.firstSentence = -1;
    this.firstParagraph = -1;
    this.lf.length = 0;
    this.bound.length = 0;
    this.boundEnd.length = 0;
    this.spans.length = 0;
    this.open = null;
    this.leadingBlank = 0;
    this.lineStart = 0;
    this.phase = INDENT;
    this.indent = 0;
    this.run = 0;
    this.lineBlank = true;
    this.depth = 0;
    this.prevCode = -1;
    this.lastSafeLf = -2;
    this.sawText = false;
  }

  /**
   * Scans `src[from:to]`, which sits at buffer offset `this.scanned`. `text` returns the whole
   * buffer; it is only called for rare random access (the opening line of a fence).
   */
  scan(src: string, from: number, to: number, text: () => string): void {
    const pos = this.scanned - from; // buffer offset = src index + pos
    let i = from;
    while (i < to) {
      const phase = this.phase;
      if (phase === PLAIN || phase === OPENER_REST) {
        if (this.open === null && phase === PLAIN) {
          i = this.scanPlain(src, i, to, pos);
        } else {
          // Fence content or an info string: nothing on the line can be a break. Jump to its end.
          const next = src.indexOf("\n", i);
          i = next === -1 || next >= to ? to : next;
          if (i > from) this.prevCode = src.charCodeAt(i - 1);
        }
        if (i >= to) break;
      }
      const c = src.charCodeAt(i);
      if (c === LF) {
        this.endLine(i + pos, text);
      } else {
        if (!this.sawText && c !== SPACE && c !== TAB) this.sawText = true;
        this.lineStartChar(c, i + pos);
      }
      this.prevCode = c;
      i++;
    }
    this.scanned = to + pos;
  }

  /**
   * The hot loop: ordinary text outside fences, up to the next `\n` (returned) or `to`. Records
   * whitespace and sentence ends in registers, with the state held in locals.
   */
  private scanPlain(src: string, i: number, to: number, pos: number): number {
    const wsCap = this.wsCap;
    const parenAware = this.options.parenAware;
    let prev = this.prevCode;
    let lastWs = this.lastWs;
    let lastSentence = this.lastSentence;
    let depth = this.depth;
    let text = false;
    for (; i < to; i++) {
      const c = src.charCodeAt(i);
      if (c === LF) break;
      if (c === SPACE || (c <= 13 && c >= 9) || (c >= 0xa0 && isWhitespaceCode(c))) {
        const at = i + pos;
        if (depth === 0) {
          if (at <= wsCap) lastWs = at;
          if ((prev === 46 || prev === 33 || prev === 63) && at <= wsCap + 1) {
            lastSentence = at;
            if (this.firstSentence < 0 && at > this.options.firstFrom) this.firstSentence = at;
          }
        } else if (at <= wsCap) this.lastWsDeep = at;
        if (c !== SPACE && c !== TAB) text = true;
      } else {
        text = true;
        if (parenAware) {
          if (c === LPAREN) depth++;
          else if (c === RPAREN && depth > 0) depth--;
        }
      }
      prev = c;
    }
    this.prevCode = prev;
    this.lastWs = lastWs;
    this.lastSentence = lastSentence;
    this.depth = depth;
    if (text) {
      this.lineBlank = false;
      this.sawText = true;
    }
    return i;
  }

  /** The first characters of a line decide whether it is a fence line. */
  private lineStartChar(c: number, at: number): void {
    switch (this.phase) {
      case INDENT:
        if (c === SPACE && this.indent < 3) {
          this.indent++;
        } else if (c === BACKTICK || c === TILDE) {
          this.runChar = c;
          this.run = 1;
          this.phase = RUN;
          this.lineBlank = false;
        } else {
          this.becomePlain(c, at);
        }
        break;
      case RUN:
        if (c === this.runChar) {
          this.run++;
          if (this.open === null && this.run === 3) this.openFence();
        } else if (this.open !== null && this.runChar === this.fenceChar && this.run >= this.fenceLen) {
          this.phase = c === SPACE || c === TAB || c === CR ? CLOSER_REST : PLAIN;
        } else {
          this.becomePlain(c, at);
        }
        break;
      case OPENER_RUN:
        if (c === this.runChar) this.run++;
        else {
          this.endOpenerRun();
          this.phase = OPENER_REST;
        }
        break;
      case CLOSER_REST:
        if (c !== SPACE && c !== TAB && c !== CR) this.phase = PLAIN;
        break;
    }
  }

  /**
   * Treats the end of the text as the end of its last line (at a forced flush): a pending closing
   * run closes its fence, a pending "maybe opener" prefix becomes plain text.
   */
  finalize(textLength: number): void {
    if (this.finalized) return;
    this.finalized = true;
    if (this.open === null) {
      if (this.phase === INDENT || this.phase === RUN) this.flushPending();
      return;
    }
    if (this.phase === CLOSER_REST || (this.phase === RUN && this.runChar === this.fenceChar && this.run >= this.fenceLen)) {
      this.closeFence(textLength);
    } else if (this.phase === OPENER_RUN) {
      this.endOpenerRun();
    }
  }

  /**
   * True when the safety of offset `x` depends on characters not received yet: the last line
   * began before `x` and may still become a fence opener, or a closing run at the very end may
   * end exactly at `x`.
   */
  isUndecidedAt(x: number, textLength: number): boolean {
    if (this.finalized || this.scanned !== textLength) return false;
    if (this.open === null) return (this.phase === INDENT || this.phase === RUN) && this.lineStart < x && this.scanned > this.lineStart;
    const closing = this.phase === CLOSER_REST || (this.phase === RUN && this.runChar === this.fenceChar && this.run >= this.fenceLen);
    return closing && x === textLength;
  }

  /** The fence span with start < x < end, or null when x is fence-safe. */
  spanContaining(x: number): FenceSpan | null {
    if (this.open !== null && this.open.start < x) return this.open;
    const spans = this.spans;
    let lo = 0;
    let hi = spans.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]!.start < x) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found === -1) return null;
    const span = spans[found]!;
    return span.end > x ? span : null;
  }

  /** Records a sentence end: fence-safe whitespace at `at` (in the window) right after `.`, `!` or `?`. */
  private sentenceEnd(at: number): void {
    this.lastSentence = at;
    if (this.firstSentence < 0 && at > this.options.firstFrom) this.firstSentence = at;
  }

  /** Records safe whitespace at `at` (a space or tab that is not a line's possible fence indent). */
  private safeWhitespace(at: number): void {
    if (at > this.wsCap) return;
    if (this.depth === 0) this.lastWs = at;
    else this.lastWsDeep = at;
  }

  private becomePlain(c: number, at: number): void {
    this.phase = PLAIN;
    if (this.open !== null) return;
    this.flushPending();
    // The character that decided the line is ordinary text: run it through the plain scanner.
    if (isWhitespaceCode(c)) {
      this.safeWhitespace(at);
      if (c !== SPACE && c !== TAB) this.lineBlank = false;
      if (this.depth === 0 && isSentenceEndCode(this.prevCode) && at <= this.wsCap + 1) this.sentenceEnd(at);
    } else {
      this.lineBlank = false;
      if (this.options.parenAware) {
        if (c === LPAREN) this.depth++;
        else if (c === RPAREN && this.depth > 0) this.depth--;
      }
    }
  }

  /** The leading spaces of a line that turned out not to be a fence opener are safe after all. */
  private flushPending(): void {
    for (let k = 0; k < this.indent; k++) this.safeWhitespace(this.lineStart + k);
    this.indent = 0;
  }

  private openFence(): void {
    this.open = { start: this.lineStart, end: Infinity, openLineEnd: -1, openLine: "", close: "" };
    this.fenceChar = this.runChar;
    this.phase = OPENER_RUN;
  }

  private endOpenerRun(): void {
    this.fenceLen = this.run;
    this.open!.close = " ".repeat(this.indent) + String.fromCharCode(this.fenceChar).repeat(this.run);
    this.indent = 0;
  }

  private closeFence(end: number): void {
    const span = this.open!;
    span.end = end;
    this.spans.push(span);
    this.open = null;
  }

  private endLine(at: number, text: () => string): void {
    this.lf.push(at);
    if (!this.sawText) this.leadingBlank = at + 1;
    let safe: boolean;
    switch (this.phase) {
      case INDENT:
        safe = this.open === null;
        if (safe) this.flushPending();
        break;
      case RUN:
        if (this.open === null) {
          this.flushPending();
          safe = true;
        } else if (this.runChar === this.fenceChar && this.run >= this.fenceLen) {
          this.closeFence(at);
          safe = true;
        } else safe = false;
        break;
      case OPENER_RUN:
      case OPENER_REST: {
        if (this.phase === OPENER_RUN) this.endOpenerRun();
        const open = this.open!;
        open.openLineEnd = at;
        open.openLine = text().slice(this.lineStart, this.prevCode === CR ? at - 1 : at);
        safe = false;
        break;
      }
      case CLOSER_REST:
        this.closeFence(at);
        safe = true;
        break;
      default:
        safe = this.open === null;
    }
    if (safe) {
      const inWindow = at <= this.wsCap;
      if (this.depth === 0) {
        const from = this.options.firstFrom;
        if (inWindow) {
          this.lastWs = at;
          this.lastNl = at;
          if (this.firstNl < 0 && at >= from) this.firstNl = at;
        }
        if (isSentenceEndCode(this.prevCode) && at <= this.wsCap + 1) this.sentenceEnd(at);
        if (this.lastSafeLf === at - 1 && at - 1 <= this.wsCap - 1) {
          this.lastParagraph = at - 1;
          if (this.firstParagraph < 0 && at - 1 >= from) this.firstParagraph = at - 1;
        }
        if (this.options.trackBoundaries && this.lineBlank && this.lineStart > 0 && this.lastSafeLf === this.lineStart - 1) {
          this.bound.push(this.lineStart - 1);
          this.boundEnd.push(at + 1);
        }
      } else if (inWindow) {
        this.lastWsDeep = at;
        this.lastNlDeep = at;
      }
      this.lastSafeLf = at;
    }
    this.lineStart = at + 1;
    this.phase = INDENT;
    this.indent = 0;
    this.run = 0;
    this.lineBlank = true;
  }
}
