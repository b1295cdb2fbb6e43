// Where the fenced code blocks of a Markdown text are, by the same rules the chunker splits by.
import { BreakScanner } from "./break-scanner.js";

/** One fenced code block of a text. */
export interface CodeFence {
  /** Offset of the first character of the opening line. */
  start: number;
  /** Offset of the `\n` that ends the opening line, or -1 when the text ends on that line. */
  openLineEnd: number;
  /**
   * Offset of the `\n` that ends the closing line (the text's length when that line is the last),
   * or the text's length when the fence is never closed (an unclosed fence runs to the end).
   */
  end: number;
  /** Whether a closing line was found. */
  closed: boolean;
  /** The opening line without its newline (indent, marker, info string), to reopen the fence. */
  openLine: string;
  /** Indent plus marker: a line that closes this fence. */
  close: string;
}

/**
 * Finds the fenced code blocks of `text` (a line with up to 3 spaces then 3+ backticks or tildes
 * opens one; a line with the same character, a run at least as long and only spaces after it
 * closes it). A position `x` is inside a fence when `start < x < end`; a split there must close the
 * fence in the first part and reopen it in the next, which `openLine` and `close` allow.
 */
export function findCodeFences(text: string): CodeFence[] {
  const scanner = new BreakScanner({ maxChars: text.length + 1, trackBoundaries: false, parenAware: false, firstFrom: 0 });
  scanner.scan(text, 0, text.length, () => text);
  scanner.finalize(text.length);
  const spans = scanner.open === null ? scanner.spans : [...scanner.spans, scanner.open];
  return spans.map((span) => {
    const closed = Number.isFinite(span.end);
    const openLineEnd = span.openLineEnd;
    const lineEnd = openLineEnd < 0 ? text.length : openLineEnd;
    return {
      start: span.start,
      openLineEnd,
      end: closed ? Math.min(span.end, text.length) : text.length,
      closed,
      openLine: span.openLine !== "" ? span.openLine.replace(/\r?\n$/, "") : text.slice(span.start, lineEnd),
      close: span.close,
    };
  });
}
