// Character classes shared by the chunkers, written as char-code tests so the hot scanning loops
// never allocate or run a regular expression per character.

export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const TAB = 9;
export const BACKTICK = 96;
export const TILDE = 126;
export const LPAREN = 40;
export const RPAREN = 41;

/** True for every code unit JavaScript's `\s` matches (ASCII and Unicode spaces, BOM). */
export function isWhitespaceCode(c: number): boolean {
  if (c === SPACE || (c >= 9 && c <= 13)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `.`, `!` or `?`: a character that can end a sentence. */
export function isSentenceEndCode(c: number): boolean {
  return c === 46 || c === 33 || c === 63;
}

/** True when the code unit is the first half of a surrogate pair (never cut after it). */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** True when the text is empty or whitespace only. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!isWhitespaceCode(text.charCodeAt(i))) return false;
  }
  return true;
}

/** Removes leading `\n` characters. */
export function stripLeadingNewlines(text: string): string {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === LF) i++;
  return i === 0 ? text : text.slice(i);
}

/** Removes leading lines that hold only spaces and tabs (each with its `\n`). */
export function stripLeadingBlankLines(text: string): string {
  let cut = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === LF) cut = i + 1;
    else if (c !== SPACE && c !== TAB) break;
    i++;
  }
  return cut === 0 ? text : text.slice(cut);
}
