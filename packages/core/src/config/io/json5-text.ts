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
    return { ok: true, value: JSON5.parse(source) as unknown };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return { ok: false, problem: describeSyntaxError(err as Json5SyntaxError, source, file) };
  }
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
