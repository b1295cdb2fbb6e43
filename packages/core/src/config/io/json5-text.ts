import JSON5 from "json5";
import type { ConfigProblem } from "./errors.js";
import { findTooDeep, MAX_CONFIG_DEPTH } from "./limits.js";

interface Json5SyntaxError extends SyntaxError {
  lineNumber?: number;
  columnNumber?: number;
}

/** Result of parsing: the value, or a problem describing the syntax error. */
export type ParseOutcome = { ok: true; value: unknown } | { ok: false; problem: ConfigProblem };

/** Limits for `parseJson5Text`. */
export interface ParseLimits {
  /** Deepest nesting allowed in this text; default `MAX_CONFIG_DEPTH`. */
  maxDepth?: number;
  /** Said after the limit in the message, e.g. why an included file gets fewer levels. */
  depthNote?: string;
}

/**
 * Parses JSON5 text from `file`. A leading byte-order mark is ignored. A syntax error becomes a
 * problem naming the file, line and column, quoting the offending line with a caret under it.
 * Text nested deeper than `limits.maxDepth` (default 64) is refused before parsing, so a
 * pathological file cannot exhaust the stack of the code that walks the parsed value.
 */
export function parseJson5Text(text: string, file: string, limits: ParseLimits = {}): ParseOutcome {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const maxDepth = limits.maxDepth ?? MAX_CONFIG_DEPTH;
  const tooDeep = findTooDeep(source, maxDepth);
  if (tooDeep) {
    return {
      ok: false,
      problem: {
        file,
        message:
          `is nested more than ${maxDepth} levels deep (objects and lists inside each other; the level past the limit opens at ` +
          `line ${tooDeep.line}, column ${tooDeep.column})${limits.depthNote ? `; ${limits.depthNote}` : ""}. ` +
          "No config needs that many: flatten it, or restore it from a backup (.bak) if it was damaged.",
      },
    };
  }
  try {
    return { ok: true, value: parseJson5Value(source) };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return { ok: false, problem: describeSyntaxError(err as Json5SyntaxError, source, file) };
  }
}

/**
 * Parses JSON5 `text` (no limits, no problem formatting): `JSON.parse` when the text is JSON with
 * comments (the fast path below), else the json5 package. Throws JSON5's SyntaxError.
 */
export function parseJson5Value(text: string): unknown {
  const fast = parseAsJson(text);
  return fast !== undefined ? fast.value : (JSON5.parse(text) as unknown);
}

/**
 * The fast path: most configs are JSON, with or without comments, which `JSON.parse` reads many
 * times faster than the json5 package (whose first calls cost ~10 ms per file on a slow machine).
 * Comments outside double-quoted strings become spaces; when the rest is valid JSON, JSON5 (a
 * superset of JSON) would have read the same value. Anything else (single quotes, trailing commas, unquoted
 * keys, hex, a syntax error) returns undefined and is left to JSON5, with its error messages.
 * A single-quoted string can hide a comment marker from this scan, but its opening quote is
 * always left in the text, so `JSON.parse` refuses it.
 */
function parseAsJson(source: string): { value: unknown } | undefined {
  // Plain JSON first (generated files such as a plugin's manifest, tens of KB): no scan at all.
  try {
    return { value: JSON.parse(source) as unknown };
  } catch {
    // comments, or JSON5's own syntax: scanned below
  }
  let out = "";
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < source.length && source.charCodeAt(i) !== 0x22; i++) if (source.charCodeAt(i) === 0x5c /* \ */) i++;
    } else if (c === 0x2f /* / */) {
      const stop = commentEnd(source, i);
      if (stop === undefined) return undefined;
      out += `${source.slice(from, i)} `;
      from = stop;
      i = stop - 1;
    }
  }
  out += source.slice(from);
  try {
    return { value: JSON.parse(out) as unknown };
  } catch {
    return undefined;
  }
}

/** Where the comment starting at `at` ends (exclusive), as JSON5 reads it; undefined if none starts there or it never ends. */
function commentEnd(source: string, at: number): number | undefined {
  const kind = source.charCodeAt(at + 1);
  if (kind === 0x2a /* * */) {
    const close = source.indexOf("*/", at + 2);
    return close === -1 ? undefined : close + 2;
  }
  if (kind !== 0x2f /* / */) return undefined;
  let i = at + 2;
  // JSON5's line terminators: \n, \r, U+2028, U+2029.
  for (let c = source.charCodeAt(i); i < source.length && c !== 0x0a && c !== 0x0d && c !== 0x2028 && c !== 0x2029; )
    c = source.charCodeAt(++i);
  return i;
}

function describeSyntaxError(err: Json5SyntaxError, source: string, file: string): ConfigProblem {
  const line = err.lineNumber ?? 1;
  const column = err.columnNumber ?? 1;
  const reason = err.message
    .replace(/^JSON5:\s*/, "")
    .replace(/\s+at \d+:\d+$/, "")
    .replace(/\\"/g, '"');
  const endOfInput = /end of input/.test(reason);
  const fix = endOfInput
    ? source.trim() === ""
      ? "The file is empty; an empty config is written as {}."
      : "The file ends too early: close every open { [ and string, or restore it from a backup (.bak)."
    : "Fix the JSON5 syntax there (often a missing comma, a missing quote, or an unquoted value with spaces); comments and trailing commas are allowed.";
  const sourceLine = source.split(/\r?\n/)[line - 1];
  const excerpt =
    sourceLine !== undefined && sourceLine.trim() !== "" && sourceLine.length <= 200
      ? `\n    ${sourceLine}\n    ${" ".repeat(Math.max(0, column - 1))}^`
      : "";
  return {
    file,
    message: `invalid JSON5 at line ${line}, column ${column}: ${reason}. ${fix}${excerpt}`,
  };
}
