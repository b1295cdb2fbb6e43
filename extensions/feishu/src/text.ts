/**
 * Text sizes as Feishu counts them: a message's serialized content must stay under 30 KB, so text
 * is measured in UTF-8 bytes of its JSON form, and split where it reads well.
 */
import { chunkText, type ChunkMode } from "@openclaw/plugin-sdk";

/** UTF-8 bytes of `text` as a JSON string (quotes, escapes and all). */
export function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), "utf8");
}

/** The longest prefix length of `text` (in UTF-16 units) whose JSON form fits `budget` bytes. */
export function fittingLength(text: string, budget: number): number {
  if (jsonBytes(text) <= budget) return text.length;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonBytes(text.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  // Never split a surrogate pair.
  if (lo > 0 && /[\uD800-\uDBFF]/.test(text[lo - 1]!)) lo -= 1;
  return lo;
}

const SENTENCE_END = /[.!?;:。！？；：…]["'”’)\]]*$/u;

/** True when `text` ends at a sentence end or a line break (a good moment to show it). */
export function endsAtBreak(text: string): boolean {
  const trimmed = text.replace(/[ \t]+$/, "");
  return trimmed.endsWith("\n") || SENTENCE_END.test(trimmed);
}

/**
 * Where to cut `text` so the first part fits `budget` bytes: the last paragraph break, line
 * break, sentence end or space in the last third of what fits, else what fits.
 */
export function cutPoint(text: string, budget: number): number {
  const max = fittingLength(text, budget);
  if (max >= text.length) return text.length;
  const window = text.slice(0, max);
  const floor = Math.floor(max * 0.66);
  const candidates = [window.lastIndexOf("\n\n") + 2, window.lastIndexOf("\n") + 1];
  const sentence = /[.!?。！？][ \n]/gu;
  let match: RegExpExecArray | null;
  let lastSentence = -1;
  while ((match = sentence.exec(window)) !== null) lastSentence = match.index + match[0].length;
  candidates.push(lastSentence, window.lastIndexOf(" ") + 1);
  for (const at of candidates) if (at > floor) return at;
  return max;
}

/** The language tag of a code fence left open at the end of `text`, or undefined when none is open. */
export function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const m = /^\s*(```+|~~~+)\s*([^\s`]*)/.exec(line);
    if (m === null) continue;
    open = open === undefined ? (m[2] ?? "") : undefined;
  }
  return open;
}

/**
 * `text` in chunks of at most `maxChars` characters whose serialized form also fits `maxBytes`
 * (Feishu's 30 KB content limit), split at the best break (`chunkMode` as configured).
 */
export function chunkForFeishu(text: string, options: { maxChars: number; maxBytes: number; mode?: ChunkMode }): string[] {
  const out: string[] = [];
  for (const chunk of chunkText(text, { maxChars: options.maxChars, mode: options.mode ?? "length" })) {
    if (jsonBytes(chunk) <= options.maxBytes) {
      out.push(chunk);
      continue;
    }
    // Multi-byte text: split again by bytes.
    let rest = chunk;
    while (rest.length > 0) {
      const cut = Math.max(1, cutPoint(rest, options.maxBytes));
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
  }
  return out;
}
