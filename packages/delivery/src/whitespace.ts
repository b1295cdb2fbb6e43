// Whitespace tests on single code units, as JavaScript's `\s` defines them (the chunker's rule).

const WHITESPACE = /\s/;

/** True when `text` has a whitespace code unit at `index` (false past the end). */
export function isWhitespaceAt(text: string, index: number): boolean {
  return WHITESPACE.test(text.charAt(index));
}
