// Test helpers: a fast-check generator of chat-style Markdown, an independent fence parser and
// the checks the chunker properties use. Written separately from the implementation on purpose.
import fc from "fast-check";

const words = [
  "the",
  "a",
  "model",
  "streams",
  "text",
  "quickly",
  "and",
  "chunks",
  "it",
  "for",
  "chat",
  "users",
  "(see",
  "docs)",
  "`code`",
  "**bold**",
  "e.g.",
  "3.14",
  "ünïcödé",
  "😀",
  "naïve",
];
const word = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...words) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 160 }).map((n) => "x".repeat(n)) },
);
const sentence = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 14 }), fc.constantFrom(".", "!", "?", "", ":"))
  .map(([ws, end]) => ws.join(" ") + end);
const paragraph = fc
  .array(fc.tuple(sentence, fc.constantFrom(" ", " ", " ", "\n")), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([s, sep], i) => (i === parts.length - 1 ? s : s + sep)).join(""));
const list = fc
  .array(fc.tuple(fc.constantFrom("- ", "* ", "1. ", "  - "), sentence), { minLength: 1, maxLength: 5 })
  .map((items) => items.map(([bullet, s]) => bullet + s).join("\n"));
const heading = fc.tuple(fc.constantFrom("# ", "## ", "### "), sentence).map(([h, s]) => h + s);
const codeChars = "abcdefghijklmnopqrstuvwxyz0123456789 (){};=.+-\"'\t<>/*";
const codeLine = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...codeChars.split("")), maxLength: 50 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 260 }).map((n) => "y".repeat(n)) },
  { weight: 1, arbitrary: fc.constant("") },
);

/** A fenced code block: backticks or tildes, 3-5 long, indented 0-3, with or without info. */
const fence = fc
  .record({
    char: fc.constantFrom("`", "~"),
    len: fc.integer({ min: 3, max: 5 }),
    indent: fc.integer({ min: 0, max: 3 }),
    info: fc.constantFrom("", "ts", "python", "js title=x", " sh"),
    lines: fc.array(codeLine, { maxLength: 14 }),
    closeExtra: fc.integer({ min: 0, max: 1 }),
    trailing: fc.constantFrom("", "  ", "\t"),
  })
  .map(({ char, len, indent, info, lines, closeExtra, trailing }) => {
    const open = " ".repeat(indent) + char.repeat(len) + info;
    // A shorter run of the same char inside the block is content, not a closer.
    const body = len > 3 ? [...lines, char.repeat(3)] : lines;
    const close = " ".repeat(Math.min(3, indent)) + char.repeat(len + closeExtra) + trailing;
    return [open, ...body, close].join("\n");
  });

const block = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 2, arbitrary: list },
  { weight: 1, arbitrary: heading },
  { weight: 3, arbitrary: fence },
);

/** Random chat-style Markdown with LF line ends and balanced fences. */
export const markdownArb = fc
  .tuple(fc.array(fc.tuple(block, fc.constantFrom("\n\n", "\n", "\n\n\n", "\n  \n")), { minLength: 1, maxLength: 12 }), fc.boolean())
  .map(([blocks, leading]) => (leading ? "\n" : "") + blocks.map(([b, sep], i) => (i === blocks.length - 1 ? b : b + sep)).join(""));

/** Cuts `text` into deltas whose sizes cycle through `sizes`. */
export function splitDeltas(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  let at = 0;
  let k = 0;
  while (at < text.length) {
    const size = Math.max(1, sizes[k++ % sizes.length] ?? 1);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

/** Model-sized deltas (1-24 chars, cycling), sometimes big ones or the whole text at once. */
export const deltaSizesArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant([1_000_000]) },
);

const OPEN = /^( {0,3})(`{3,}|~{3,})([\s\S]*)$/;
const CLOSE = /^( {0,3})(`{3,}|~{3,})[ \t]*$/;

interface FenceParse {
  /** True when no fence is left open at the end of the text. */
  balanced: boolean;
  /** Indexes (into text.split("\n")) of fence opening and closing lines. */
  fenceLines: Set<number>;
}

/** Parses fences line by line, CommonMark style (the oracle for the chunker tests). */
export function parseFences(text: string): FenceParse {
  const lines = text.split("\n");
  const fenceLines = new Set<number>();
  let open: { char: string; len: number } | null = null;
  lines.forEach((line, i) => {
    if (open === null) {
      const m = OPEN.exec(line);
      if (m) {
        open = { char: m[2]![0]!, len: m[2]!.length };
        fenceLines.add(i);
      }
      return;
    }
    const m = CLOSE.exec(line);
    if (m && m[2]![0] === open.char && m[2]!.length >= open.len) {
      open = null;
      fenceLines.add(i);
    }
  });
  return { balanced: open === null, fenceLines };
}

/** The text without its fence marker lines. */
export function withoutFenceLines(text: string): string {
  const { fenceLines } = parseFences(text);
  return text
    .split("\n")
    .filter((_, i) => !fenceLines.has(i))
    .join("\n");
}

/**
 * Checks that the chunks, fence lines removed, spell the text (fence lines removed) in order
 * with nothing but whitespace between them or after the last. Returns a reason, or null.
 */
export function roundTripProblem(text: string, chunks: readonly string[]): string | null {
  const original = withoutFenceLines(text);
  let at = 0;
  for (const [n, chunk] of chunks.entries()) {
    const body = withoutFenceLines(chunk);
    for (;;) {
      if (original.startsWith(body, at)) {
        at += body.length;
        break;
      }
      if (at < original.length && /\s/.test(original[at]!)) {
        at++;
        continue;
      }
      return `chunk ${n} ${JSON.stringify(body.slice(0, 60))} does not continue the text at ${at}: ${JSON.stringify(original.slice(at, at + 60))}`;
    }
  }
  if (original.slice(at).trim() !== "") return `text lost after the last chunk: ${JSON.stringify(original.slice(at, at + 60))}`;
  return null;
}
