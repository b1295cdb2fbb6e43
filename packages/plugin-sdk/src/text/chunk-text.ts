// One-shot splitting of a final reply for delivery (reference §8, "Outbound final chunking").
import { isBlank } from "./chars.js";
import { BlockChunker, type ChunkMode } from "./chunker.js";

/** Options of `chunkText`. */
export interface ChunkTextOptions {
  /** Longest message (a channel's textChunkLimit); at least 1. */
  maxChars: number;
  /**
   * "length" (default): fill each message, breaking at the last newline in the window, else the
   * last whitespace, outside parentheses when possible, never inside a code fence unless the fence
   * itself is too long (then it is closed and reopened). "newline": one message per blank-line
   * paragraph outside fences, with paragraphs longer than maxChars split as in "length".
   */
  mode?: ChunkMode;
}

/**
 * Splits a complete reply into messages of at most `maxChars` characters (added fence lines
 * included). Returns [] for blank text; a text that fits is returned whole in "length" mode.
 */
export function chunkText(text: string, options: ChunkTextOptions): string[] {
  if (isBlank(text)) return [];
  const mode: ChunkMode = options.mode === "newline" ? "newline" : "length";
  const maxChars = Math.max(1, Math.floor(Number.isFinite(options.maxChars) ? options.maxChars : 1));
  if (mode === "length" && text.length <= maxChars) return [text];
  const chunker = new BlockChunker({
    minChars: 1,
    maxChars,
    breakPreference: "newline",
    chunkMode: mode,
    keepParenthesesWhole: true,
    fill: true,
  });
  return [...chunker.push(text), ...chunker.flush({ force: true })];
}
