/** One `@@` section of an `*** Update File:` hunk. */
export interface UpdateChunk {
  /** Text after `@@ ` (a line to find before matching `oldLines`), if any. */
  context?: string;
  /** Lines expected in the file (context and `-` lines), in order. */
  oldLines: string[];
  /** Lines that replace them (context and `+` lines), in order. */
  newLines: string[];
  /** The section as written: each line with its mark (` ` context, `-` removed, `+` added). */
  lines: Array<{ kind: " " | "-" | "+"; text: string }>;
  /** `*** End of File` followed: the lines must match at the end of the file. */
  atEndOfFile: boolean;
}

export type PatchHunk =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; chunks: UpdateChunk[] };

/** The patch text does not follow the format; `line` is 1-based in the patch text. */
export class PatchParseError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = "PatchParseError";
  }
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

// Headers are recognised at the start of a line only, so a context line " *** End Patch" is text.
function isHunkHeader(line: string): boolean {
  const t = line.trimEnd();
  return t.startsWith(ADD.trim()) || t.startsWith(DELETE.trim()) || t.startsWith(UPDATE.trim()) || t === END;
}

/** True when lines[i..] are blank up to the next hunk header or the end: a separator, not content. */
function onlyBlanksUntilHeader(lines: string[], i: number, last: number): boolean {
  let j = i;
  while (j < last && lines[j]!.trim() === "") j++;
  return j >= last || isHunkHeader(lines[j]!);
}

function headerPath(line: string, prefix: string, lineNo: number): string {
  const p = line.trim().slice(prefix.trim().length).trim();
  if (p === "") throw new PatchParseError(`"${prefix.trim()}" needs a file path`, lineNo);
  return p;
}

/** Drops a shell heredoc wrapper (`apply_patch <<'EOF'` ... `EOF`) that models sometimes include. */
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? "";
  const last = lines[lines.length - 1]?.trim() ?? "";
  const m = /<<\s*['"]?(\w+)['"]?\s*$/.exec(first);
  if (m && last === m[1]) return lines.slice(1, -1);
  return lines;
}

/**
 * Parses the OpenAI apply_patch envelope:
 * `*** Begin Patch`, then hunks (`*** Add File: p` with `+` lines; `*** Delete File: p`;
 * `*** Update File: p`, optional `*** Move to: q`, then `@@ [context]` sections of ` `/`-`/`+`
 * lines, optionally closed by `*** End of File`), then `*** End Patch`.
 * Lenient where it is safe: surrounding blank lines, a heredoc wrapper, an empty line inside an
 * update section (an empty context line), a first section without `@@`.
 */
export function parsePatch(text: string): PatchHunk[] {
  let lines = text.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  lines = unwrapHeredoc(lines);
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`the patch must start with "${BEGIN}"`, 1);
  if (lines[lines.length - 1]?.trim() !== END) throw new PatchParseError(`the patch must end with "${END}"`, lines.length);

  const hunks: PatchHunk[] = [];
  let i = 1;
  const last = lines.length - 1;
  while (i < last) {
    const line = lines[i]!;
    const lineNo = i + 1;
    const t = line.trimEnd();
    if (t.trim() === "") {
      i++;
      continue;
    }
    if (t.startsWith(ADD.trim())) {
      const path = headerPath(line, ADD, lineNo);
      i++;
      const body: string[] = [];
      while (i < last && !isHunkHeader(lines[i]!)) {
        const l = lines[i]!;
        if (l.trim() === "" && onlyBlanksUntilHeader(lines, i, last)) break;
        if (!l.startsWith("+")) throw new PatchParseError(`every line of an added file starts with "+" (in "${path}")`, i + 1);
        body.push(l.slice(1));
        i++;
      }
      hunks.push({ type: "add", path, content: body.length === 0 ? "" : `${body.join("\n")}\n` });
    } else if (t.startsWith(DELETE.trim())) {
      hunks.push({ type: "delete", path: headerPath(line, DELETE, lineNo) });
      i++;
    } else if (t.startsWith(UPDATE.trim())) {
      const path = headerPath(line, UPDATE, lineNo);
      i++;
      let moveTo: string | undefined;
      if (i < last && lines[i]!.startsWith(MOVE.trim())) {
        moveTo = headerPath(lines[i]!, MOVE, i + 1);
        i++;
      }
      const chunks: UpdateChunk[] = [];
      let current: UpdateChunk | undefined;
      while (i < last && !isHunkHeader(lines[i]!)) {
        const l = lines[i]!;
        if (l.trim() === "" && onlyBlanksUntilHeader(lines, i, last)) break;
        if (l.trimEnd() === EOF_MARK) {
          if (!current) throw new PatchParseError(`"${EOF_MARK}" must follow changed lines`, i + 1);
          current.atEndOfFile = true;
          current = undefined;
        } else if (l.startsWith("@@")) {
          const ctx = l.slice(2).trim();
          current = { oldLines: [], newLines: [], lines: [], atEndOfFile: false, ...(ctx ? { context: ctx } : {}) };
          chunks.push(current);
        } else {
          if (!current) {
            if (chunks.length > 0) throw new PatchParseError(`changed lines after "${EOF_MARK}" need a new "@@" line`, i + 1);
            current = { oldLines: [], newLines: [], lines: [], atEndOfFile: false };
            chunks.push(current);
          }
          const mark = l[0];
          const body = l.slice(1);
          if (l === "" || mark === " ") {
            current.oldLines.push(body);
            current.newLines.push(body);
            current.lines.push({ kind: " ", text: body });
          } else if (mark === "-") {
            current.oldLines.push(body);
            current.lines.push({ kind: "-", text: body });
          } else if (mark === "+") {
            current.newLines.push(body);
            current.lines.push({ kind: "+", text: body });
          } else
            throw new PatchParseError(
              `a changed line must start with " ", "-" or "+" (in "${path}"); got ${JSON.stringify(l.slice(0, 40))}`,
              i + 1,
            );
        }
        i++;
      }
      const real = chunks.filter((c) => c.oldLines.length > 0 || c.newLines.length > 0);
      if (real.length === 0 && moveTo === undefined) throw new PatchParseError(`"${UPDATE.trim()} ${path}" has no changes`, lineNo);
      hunks.push({ type: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), chunks: real });
    } else {
      throw new PatchParseError(
        `expected "${ADD.trim()}", "${UPDATE.trim()}", "${DELETE.trim()}" or "${END}", got ${JSON.stringify(t.slice(0, 60))}`,
        lineNo,
      );
    }
  }
  if (hunks.length === 0) throw new PatchParseError("the patch contains no file operations");
  return hunks;
}
