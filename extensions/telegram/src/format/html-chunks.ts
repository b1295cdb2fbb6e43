/**
 * Telegram HTML measured and split the way Telegram counts it: by visible text in UTF-16 code
 * units (tags are free, `&amp;` is one character). Splitting keeps every chunk valid on its own:
 * tags open at a cut are closed at the end of the chunk and reopened at the start of the next,
 * and a cut never falls inside a character reference or a surrogate pair.
 */

type Atom =
  | { kind: "open"; name: string; raw: string }
  | { kind: "close"; name: string; raw: string }
  | { kind: "text"; raw: string; char: string; width: number };

interface OpenTag {
  name: string;
  raw: string;
}

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?>/;
const REFERENCE = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };

function decodeReference(body: string): string | undefined {
  if (body.startsWith("#")) {
    const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return NAMED[body.toLowerCase()];
}

function tokenize(html: string): Atom[] {
  const atoms: Atom[] = [];
  let i = 0;
  while (i < html.length) {
    const ch = html[i]!;
    if (ch === "<") {
      const match = TAG.exec(html.slice(i, i + 512));
      if (match) {
        const name = match[2]!.toLowerCase();
        atoms.push(match[1] === "/" ? { kind: "close", name, raw: match[0] } : { kind: "open", name, raw: match[0] });
        i += match[0].length;
        continue;
      }
    } else if (ch === "&") {
      const match = REFERENCE.exec(html.slice(i, i + 12));
      const char = match ? decodeReference(match[1]!) : undefined;
      if (match && char !== undefined) {
        atoms.push({ kind: "text", raw: match[0], char, width: char.length });
        i += match[0].length;
        continue;
      }
    }
    const code = html.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < html.length;
    const raw = pair ? html.slice(i, i + 2) : ch;
    atoms.push({ kind: "text", raw, char: raw, width: raw.length });
    i += raw.length;
  }
  return atoms;
}

/** Visible length of Telegram HTML in UTF-16 code units (what Telegram's 4096 limit counts). */
export function visibleLength(html: string): number {
  let n = 0;
  for (const atom of tokenize(html)) if (atom.kind === "text") n += atom.width;
  return n;
}

/** The visible text of Telegram HTML: tags removed, character references resolved. */
export function htmlToPlain(html: string): string {
  let out = "";
  for (const atom of tokenize(html)) if (atom.kind === "text") out += atom.char;
  return out;
}

function applyTag(stack: OpenTag[], atom: Atom): void {
  if (atom.kind === "open") stack.push({ name: atom.name, raw: atom.raw });
  else if (atom.kind === "close") {
    const at = stack.map((t) => t.name).lastIndexOf(atom.name);
    if (at >= 0) stack.splice(at, 1);
  }
}

const closing = (stack: readonly OpenTag[]) =>
  [...stack]
    .reverse()
    .map((t) => `</${t.name}>`)
    .join("");

/**
 * Splits Telegram HTML into chunks of at most `limit` visible characters (default 4096). Each
 * chunk is balanced: tags open at a cut are closed there and reopened (with their attributes)
 * in the next chunk. Cuts prefer the last newline, then the last whitespace, in the second half
 * of the window; a single unbreakable run is cut hard. Blank chunks are dropped.
 */
export function splitTelegramHtml(html: string, limit = 4096): string[] {
  const max = Math.max(1, Math.floor(limit));
  const atoms = tokenize(html);
  const chunks: string[] = [];
  let stack: OpenTag[] = [];
  let i = 0;
  while (i < atoms.length) {
    const prefix = stack.map((t) => t.raw).join("");
    const open = [...stack];
    let width = 0;
    let j = i;
    let newline: { at: number; width: number; stack: OpenTag[] } | undefined;
    let space: { at: number; width: number; stack: OpenTag[] } | undefined;
    while (j < atoms.length) {
      const atom = atoms[j]!;
      if (atom.kind !== "text") {
        applyTag(open, atom);
        j += 1;
        continue;
      }
      if (width + atom.width > max && width > 0) break;
      width += atom.width;
      j += 1;
      if (atom.char === "\n") newline = { at: j, width, stack: [...open] };
      else if (/^\s$/.test(atom.char)) space = { at: j, width, stack: [...open] };
    }
    let end = j;
    let endStack = open;
    if (j < atoms.length) {
      const half = max / 2;
      const cut = newline && newline.width >= half ? newline : space && space.width >= half ? space : undefined;
      if (cut) {
        end = cut.at;
        endStack = cut.stack;
      }
      // Tags opened right before the cut belong to the next chunk; tags closed right after it, to this one.
      while (end > i && atoms[end - 1]!.kind === "open") {
        end -= 1;
        endStack = endStack.slice(0, -1);
      }
      endStack = [...endStack];
      while (end < atoms.length && atoms[end]!.kind === "close") {
        applyTag(endStack, atoms[end]!);
        end += 1;
      }
    }
    const body = atoms
      .slice(i, end)
      .map((a) => a.raw)
      .join("");
    const chunk = prefix + body + closing(endStack);
    if (htmlToPlain(chunk).trim() !== "") chunks.push(chunk);
    stack = endStack;
    i = end;
  }
  return chunks;
}
