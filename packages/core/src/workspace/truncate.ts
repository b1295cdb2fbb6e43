// Fitting one bootstrap file into its character budget.
//
// Algorithm (the newer 0.75/0.25 head/tail variant):
//   block      = head + "\n\n" + marker + "\n\n" + tail
//   contentBudget = budget - markerLength - 4 (the two blank-line separators)
//   head = floor(contentBudget * 0.75), tail = contentBudget - head
// The marker's length depends on the numbers it prints, so it is first measured with the widest
// numbers possible (the budget itself) and then rebuilt with the real ones, which can only be as
// short or shorter. A cut moves to a nearby line break (keeping less, never more), and no cut
// splits a UTF-16 surrogate pair (the cut moves inward by one instead).
// Hence the block is always <= budget. When the budget cannot hold the marker plus at least
// MIN_TRUNCATED_CONTENT_CHARS of content, truncateWithMarker returns null and the caller either
// drops the file or falls back to clampToBudget (a plain cut ending in "…").

/** Share of the content budget kept from the start of the file; the rest comes from its end. */
export const TRUNCATION_HEAD_RATIO = 0.75;
/** Smallest amount of file content worth keeping next to a truncation marker. */
export const MIN_TRUNCATED_CONTENT_CHARS = 16;

const SEPARATOR = "\n\n";
/** A cut moves back to a line break at most this share of the kept part away. */
const LINE_SNAP_RATIO = 0.1;

export interface TruncatedContent {
  text: string;
  headChars: number;
  tailChars: number;
}

/** The note placed between head and tail of a truncated file. */
export function truncationMarker(name: string, filePath: string, head: number, tail: number, original: number): string {
  return (
    `[… ${name} was cut to fit the context limit: only its first ${head} and last ${tail} of ${original} characters are shown.\n` +
    `Read ${filePath} with your file tools for the complete text. …]`
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Keeps the head and tail of `content` around a marker so that the result has at most `budget`
 * characters. Returns null when the budget is too small for the marker and 16 characters of content.
 * `originalChars` (default content.length) is the size the marker reports.
 */
export function truncateWithMarker(
  content: string,
  name: string,
  filePath: string,
  budget: number,
  originalChars: number = content.length,
): TruncatedContent | null {
  const widest = truncationMarker(name, filePath, budget, budget, Math.max(originalChars, budget));
  const contentBudget = budget - widest.length - 2 * SEPARATOR.length;
  if (contentBudget < MIN_TRUNCATED_CONTENT_CHARS) return null;
  let head = Math.floor(contentBudget * TRUNCATION_HEAD_RATIO);
  let tail = contentBudget - head;
  // Prefer whole lines when a line break lies close to a cut (within the last/first 10 %).
  const headBreak = content.lastIndexOf("\n", head - 1);
  if (headBreak >= 0 && head - (headBreak + 1) <= head * LINE_SNAP_RATIO) head = headBreak + 1;
  const tailStart = content.length - tail;
  const tailBreak = content.indexOf("\n", tailStart);
  if (tailBreak >= 0 && tailBreak + 1 - tailStart <= tail * LINE_SNAP_RATIO) tail = content.length - (tailBreak + 1);
  if (head > 0 && isHighSurrogate(content.charCodeAt(head - 1))) head -= 1;
  if (tail > 0 && isLowSurrogate(content.charCodeAt(content.length - tail))) tail -= 1;
  const marker = truncationMarker(name, filePath, head, tail, originalChars);
  const text = content.slice(0, head) + SEPARATOR + marker + SEPARATOR + content.slice(content.length - tail);
  return { text, headChars: head, tailChars: tail };
}

/** Cuts `text` to at most `budget` characters, ending in "…" when cut (surrogate-safe). */
export function clampToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text;
  if (budget <= 0) return "";
  if (budget === 1) return "…";
  let end = budget - 1;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end) + "…";
}
