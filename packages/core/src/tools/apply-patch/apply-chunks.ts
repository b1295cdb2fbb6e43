import type { UpdateChunk } from "./parse.js";

/** A section of an update could not be placed in the file. */
export class PatchApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatchApplyError";
  }
}

// Typographic punctuation models tend to "fix" when copying lines; compared as plain ASCII.
const PUNCT: Record<string, string> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u00a0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2009": " ",
  "\u202f": " ",
};
const normalizePunct = (s: string) =>
  s.trim().replace(/[\u2010-\u2015\u2212\u2018-\u201f\u00a0\u2002\u2003\u2009\u202f]/g, (c) => PUNCT[c] ?? c);

const PASSES: ReadonlyArray<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normalizePunct(a) === normalizePunct(b),
];

/**
 * Index of the first place at or after `start` where `pattern` matches `lines`, trying exact,
 * then trailing-whitespace-insensitive, then whitespace-insensitive, then punctuation-normalized
 * comparison. With `atEnd`, a match at the very end of the file is tried first.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, atEnd: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const lastStart = lines.length - pattern.length;
  for (const eq of PASSES) {
    const matchesAt = (i: number) => pattern.every((p, k) => eq(lines[i + k]!, p));
    if (atEnd && lastStart >= start && matchesAt(lastStart)) return lastStart;
    for (let i = start; i <= lastStart; i++) if (matchesAt(i)) return i;
  }
  return -1;
}

function describe(lines: readonly string[]): string {
  const shown = lines.slice(0, 6).map((l) => `  ${l}`);
  if (lines.length > 6) shown.push(`  ... (${lines.length - 6} more lines)`);
  return shown.join("\n");
}

/**
 * The lines that replace a matched section. Context lines keep the file's own text (they may
 * have matched loosely, e.g. with different trailing spaces or quotes); removed lines go, added
 * lines come in as written. A trailing empty context line dropped during matching is skipped.
 */
function replacementLines(chunk: UpdateChunk, lines: readonly string[], at: number, matched: number): string[] {
  const out: string[] = [];
  let k = 0;
  for (const line of chunk.lines) {
    if (line.kind === "+") out.push(line.text);
    else {
      if (line.kind === " " && k < matched) out.push(lines[at + k]!);
      k++;
    }
  }
  return out;
}

/**
 * Applies update sections to a file's text. Sections are placed in order, each after the
 * previous one. Line endings (LF or CRLF) and the presence of a final newline are preserved.
 */
export function applyChunks(original: string, chunks: readonly UpdateChunk[], file: string): string {
  const crlf = original.includes("\r\n");
  const text = crlf ? original.replace(/\r\n/g, "\n") : original;
  const finalNewline = text === "" || text.endsWith("\n");
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();

  const replacements: Array<{ at: number; remove: number; insert: string[] }> = [];
  let cursor = 0;
  for (const [index, chunk] of chunks.entries()) {
    const label = `section ${index + 1} of "${file}"`;
    if (chunk.context !== undefined) {
      const at = seekSequence(lines, [chunk.context], cursor, false);
      if (at === -1)
        throw new PatchApplyError(`${label}: the "@@ ${chunk.context}" line was not found${cursor > 0 ? ` after line ${cursor}` : ""}.`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Pure insertion: after the @@ context line when there is one, else at the end of the file.
      const at = chunk.context !== undefined && !chunk.atEndOfFile ? cursor : lines.length;
      replacements.push({ at, remove: 0, insert: chunk.newLines });
      cursor = at;
      continue;
    }
    let oldLines = chunk.oldLines;
    let at = seekSequence(lines, oldLines, cursor, chunk.atEndOfFile);
    if (at === -1 && oldLines[oldLines.length - 1] === "") {
      oldLines = oldLines.slice(0, -1);
      at = seekSequence(lines, oldLines, cursor, chunk.atEndOfFile);
    }
    if (at === -1) {
      throw new PatchApplyError(
        `${label}: these lines were not found${cursor > 0 ? ` after line ${cursor}` : ""}:\n${describe(oldLines)}\nRead the file and copy the lines exactly.`,
      );
    }
    replacements.push({ at, remove: oldLines.length, insert: replacementLines(chunk, lines, at, oldLines.length) });
    cursor = at + oldLines.length;
  }
  // Positions never decrease (each section is sought after the previous one), so apply back to front.
  for (const r of [...replacements].reverse()) lines.splice(r.at, r.remove, ...r.insert);
  let out = lines.join("\n");
  if (lines.length > 0 && finalNewline) out += "\n";
  return crlf ? out.replace(/\n/g, "\r\n") : out;
}
