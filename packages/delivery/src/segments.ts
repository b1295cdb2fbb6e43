// The messages of one live preview, as ranges of the reply text. A frozen segment has an end and
// never changes again; the last segment grows with the reply until it reaches the edit limit.
import { isWhitespaceAt } from "./whitespace.js";
import { splitForRollover } from "./rollover.js";

/** Internal: one preview message. */
export interface Segment {
  /** Offset in the reply text where this message's content starts. */
  start: number;
  /** A code-fence opening line shown first (the previous message closed the fence), else "". */
  reopen: string;
  /** Offset where the content ends, once the message is frozen. */
  end?: number;
  /** A fence-closing line shown last when the freeze cut a code fence, else "". */
  close: string;
  /** The platform's id, once sent. */
  messageId?: string;
  /** The text the platform last confirmed for this message. */
  shown?: string;
  /** Its last confirmed edit was the final one (priority "final"), not a preview's. */
  finalized?: boolean;
}

/** The text a segment shows: frozen ones from `frozenText`, the open one from `text`. */
export function segmentText(segment: Segment, text: string, frozenText: string): string {
  if (segment.end === undefined) return segment.reopen + text.slice(segment.start);
  return segment.reopen + frozenText.slice(segment.start, segment.end) + segment.close;
}

/**
 * Freezes the last segment while its text would pass `limit`, appending the segment that
 * continues where it stopped. Returns the new frozen text (the reply up to the open segment).
 */
export function rollOver(segments: Segment[], text: string, limit: number, frozenText: string): string {
  let current = segments[segments.length - 1];
  if (current === undefined) {
    current = { start: 0, reopen: "", close: "" };
    segments.push(current);
  }
  let frozen = frozenText;
  for (;;) {
    const shown = current.reopen + text.slice(current.start);
    if (shown.length <= limit) return frozen;
    const seen = current.shown === undefined ? 0 : commonPrefixLength(shown, current.shown);
    const reopen = current.reopen.length < limit / 2 ? current.reopen.length + 1 : 0;
    const split = splitForRollover(shown, limit, Math.max(seen, reopen));
    const base = current.start - current.reopen.length;
    current.end = Math.max(current.start, base + split.cut);
    current.close = split.closeFence;
    let next: Segment = { start: Math.max(current.end, base + split.resume), reopen: split.reopenFence, close: "" };
    if (next.start <= current.start) {
      // Only a pathological fence line (half the limit long) gets here: cut plainly to keep moving.
      current.end = current.start + Math.max(1, limit - current.reopen.length);
      current.close = "";
      next = { start: current.end, reopen: "", close: "" };
    }
    segments.push(next);
    frozen = text.slice(0, next.start);
    current = next;
  }
}

/** Length of the common prefix of two strings. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The first non-whitespace offset at or after `from`. */
export function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (isWhitespaceAt(text, i)) i++;
  return i;
}
