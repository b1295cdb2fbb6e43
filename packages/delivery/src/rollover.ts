// Where a preview message that outgrew the edit limit stops, and where the next one starts.
// The break is chosen by the shared block chunker (paragraph > newline > sentence > space, never
// inside a code fence unless the fence alone is too long); this module maps the chunker's first
// block back to offsets in the text so the next message continues exactly where it stopped.
import { BlockChunker, findCodeFences, type CodeFence } from "@openclaw/plugin-sdk";
import { isWhitespaceAt } from "./whitespace.js";

const LF = 10;

/** Internal: a split of `text` into a head that fits and the place the rest resumes. */
export interface RolloverSplit {
  /** The head is `text.slice(0, cut) + closeFence`. */
  cut: number;
  /** Added after the head when the cut is inside a code fence (`"\n```"` or `"```"`), else `""`. */
  closeFence: string;
  /** The next message shows `reopenFence + text.slice(resume)` (whitespace at the break is skipped). */
  resume: number;
  /** The fence opening line (with its newline) the next message starts with, else `""`. */
  reopenFence: string;
}

const FENCE_TAIL = /\n?([`~]{3,})$/;

/** The plain break: skip one whitespace character, then the newlines that follow (as the chunker does). */
function resumeAfter(text: string, cut: number): number {
  let at = cut;
  if (isWhitespaceAt(text, at)) at++;
  while (at < text.length && text.charCodeAt(at) === LF) at++;
  return at;
}

/** A break outside any code fence: the head ends at `cut`, the next message resumes after the break. */
function plainSplit(text: string, cut: number): RolloverSplit {
  return { cut, closeFence: "", resume: resumeAfter(text, cut), reopenFence: "" };
}

/** Where a cut at `cut` leaves a code fence open: the fence to close and reopen, or null. */
function fenceAt(fences: readonly CodeFence[], cut: number): CodeFence | null {
  for (const fence of fences) if (fence.start < cut && cut < fence.end) return fence;
  return null;
}

/**
 * A cut inside `fence` at `cut`, closed in this message and reopened in the next, or null when the
 * cut falls on the fence's own opening or closing line (splitting there shows an empty block or a
 * broken marker), or the closing line does not fit in `limit`.
 */
function fencedCut(text: string, fence: CodeFence, cut: number, limit: number, skip: boolean): RolloverSplit | null {
  if (fence.openLineEnd < 0 || cut <= fence.openLineEnd) return null;
  if (fence.closed) {
    const closeLineStart = text.lastIndexOf("\n", fence.end - 1) + 1;
    if (cut >= closeLineStart - 1) return null;
  }
  const closeFence = (text.charCodeAt(cut - 1) === LF ? "" : "\n") + fence.close;
  if (cut + closeFence.length > limit) return null;
  return { cut, closeFence, resume: skip ? cut + 1 : cut, reopenFence: `${fence.openLine}\n` };
}

/**
 * Last resort when the chunker finds no break that keeps `minCut`: the last whitespace in
 * [minCut, limit] (inside a code fence a line end first, then a space; the fence is closed and
 * reopened), else a hard cut at `limit`.
 */
function hardSplit(text: string, limit: number, minCut: number): RolloverSplit {
  const lineEnd = text.indexOf("\n", limit);
  const fences = findCodeFences(lineEnd < 0 ? text : text.slice(0, lineEnd + 1));
  for (const spacesInCode of [false, true]) {
    for (let i = limit; i >= minCut && i > 0; i--) {
      if (!isWhitespaceAt(text, i)) continue;
      const fence = fenceAt(fences, i);
      if (fence === null) {
        if (spacesInCode) continue;
        return plainSplit(text, i);
      }
      if ((text.charCodeAt(i) === LF) === spacesInCode) continue;
      const split = fencedCut(text, fence, i, limit, true);
      if (split !== null) return split;
    }
  }
  for (let cut = limit; cut >= minCut && cut > 0; cut--) {
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) continue;
    const fence = fenceAt(fences, cut);
    if (fence === null) return plainSplit(text, cut);
    const split = fencedCut(text, fence, cut, limit, false);
    if (split !== null) return split;
  }
  return plainSplit(text, limit);
}

/**
 * Splits `text` (longer than `limit`) so the head fits in `limit` characters, ending at the best
 * break in the second half of the window. The head keeps at least `minCut` characters: the part
 * of this message the user has already seen (and a reopened fence line), so the next message
 * never repeats it. Returns the offsets of the break.
 */
export function splitForRollover(text: string, limit: number, minCut = 0): RolloverSplit {
  const floor = Math.max(1, Math.min(minCut, limit));
  const window = text.slice(0, 2 * limit + 16);
  const chunker = new BlockChunker({
    minChars: Math.max(floor, Math.floor(limit / 2)),
    maxChars: limit,
    breakPreference: "paragraph",
    fill: true,
  });
  const blocks = [...chunker.push(window), ...chunker.flush()];
  const first = blocks[0];
  if (first === undefined || first.length < floor) return hardSplit(text, limit, floor);
  if (text.startsWith(first) && first.length < text.length) {
    return plainSplit(text, first.length);
  }
  const fence = FENCE_TAIL.exec(first);
  const second = blocks[1];
  if (fence === null || second === undefined) return hardSplit(text, limit, floor);
  const lineEnd = second.indexOf("\n");
  if (lineEnd < 0) return hardSplit(text, limit, floor);
  const reopenFence = second.slice(0, lineEnd + 1);
  const continued = second.slice(lineEnd + 1, lineEnd + 65);
  const body = first.slice(0, first.length - fence[1]!.length);
  for (const cut of [body.length, body.length - 1]) {
    if (cut < floor || !text.startsWith(body.slice(0, cut))) continue;
    if (!text.startsWith(continued, cut)) continue;
    return { cut, closeFence: first.slice(cut), resume: cut, reopenFence };
  }
  return hardSplit(text, limit, floor);
}
