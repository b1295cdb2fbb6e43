/** Largest main config file, in bytes (10 MiB); checked with `stat` before the file is read. */
export const MAX_CONFIG_BYTES = 10 * 1024 * 1024;

/** Deepest nesting of objects and lists in the config, counting the outermost `{` as 1 (64). */
export const MAX_CONFIG_DEPTH = 64;

/** Where JSON5 text first nests deeper than allowed (1-based line and column of the bracket). */
export interface TooDeep {
  line: number;
  column: number;
}

/**
 * Scans JSON5 text for `{` and `[` outside strings and comments, without recursion, and returns
 * the position of the first bracket that opens level `maxDepth + 1`; undefined when the text stays
 * within `maxDepth`. Malformed text is not judged here (the parser reports it).
 */
export function findTooDeep(text: string, maxDepth: number): TooDeep | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      lineStart = i + 1;
    } else if (c === '"' || c === "'") {
      // A string: skip to its closing quote; a backslash escapes the next character (even a newline).
      i++;
      while (i < n && text[i] !== c) {
        if (text[i] === "\\") i++;
        if (text[i] === "\n") {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
    } else if (c === "/" && text[i + 1] === "/") {
      while (i + 1 < n && text[i + 1] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      i += 2;
      while (i < n && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      i++;
    } else if (c === "{" || c === "[") {
      depth++;
      if (depth > maxDepth) return { line, column: i - lineStart + 1 };
    } else if (c === "}" || c === "]") {
      depth--;
    }
    i++;
  }
  return undefined;
}

/** A size for messages in MB (MiB), with at most one decimal: "10 MB", "2.5 MB". */
export function formatMegabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
