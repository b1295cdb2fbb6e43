import type { ParsedText } from "./html.js";
import type { TgMessageEntity } from "./types.js";

/** Characters MarkdownV2 reserves; outside entities they must be escaped with `\`. */
const RESERVED = new Set(["_", "*", "[", "]", "(", ")", "~", "`", ">", "#", "+", "-", "=", "|", "{", "}", ".", "!"]);

const ENTITY_NAMES: Record<string, string> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  code: "Code",
  pre: "Pre",
  text_link: "TextUrl",
};

interface Open {
  type: string;
  offset: number;
  byte: number;
}

function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index), "utf8");
}

/** Reads a code or pre body up to its closing backticks; `\` escapes `` ` `` and `\`. */
function readCode(src: string, start: number, fence: string): { body: string; end: number } | undefined {
  let body = "";
  let i = start;
  while (i < src.length) {
    if (src[i] === "\\" && (src[i + 1] === "`" || src[i + 1] === "\\")) {
      body += src[i + 1];
      i += 2;
      continue;
    }
    if (src.startsWith(fence, i)) return { body, end: i + fence.length };
    body += src[i];
    i += 1;
  }
  return undefined;
}

/**
 * Parses MarkdownV2 roughly as the Bot API does: `*bold*`, `_italic_`, `__underline__`,
 * `~strike~`, `||spoiler||`, `` `code` ``, ```` ```lang\npre``` ````, `[text](url)` and `>` quotes;
 * every other reserved character must be escaped. Errors use Telegram's wording without the
 * "Bad Request: can't parse entities: " prefix.
 */
export function parseMarkdownV2(src: string): ParsedText {
  let text = "";
  const entities: TgMessageEntity[] = [];
  const stack: Open[] = [];
  let i = 0;
  const toggle = (type: string, width: number) => {
    const top = stack[stack.length - 1];
    if (top?.type === type) {
      stack.pop();
      if (text.length > top.offset) entities.push({ type, offset: top.offset, length: text.length - top.offset });
    } else {
      stack.push({ type, offset: text.length, byte: byteOffset(src, i) });
    }
    i += width;
  };
  while (i < src.length) {
    const c = src[i]!;
    const atLineStart = i === 0 || src[i - 1] === "\n";
    if (c === "\\" && i + 1 < src.length) {
      text += src[i + 1];
      i += 2;
    } else if (c === "*") toggle("bold", 1);
    else if (c === "_" && src[i + 1] === "_") toggle("underline", 2);
    else if (c === "_") toggle("italic", 1);
    else if (c === "~") toggle("strikethrough", 1);
    else if (c === "|" && src[i + 1] === "|") toggle("spoiler", 2);
    else if (c === "`") {
      const fence = src.startsWith("```", i) ? "```" : "`";
      let start = i + fence.length;
      let language: string | undefined;
      if (fence === "```") {
        const newline = src.indexOf("\n", start);
        if (newline >= 0) {
          language = src.slice(start, newline).trim() || undefined;
          start = newline + 1;
        }
      }
      const code = readCode(src, start, fence);
      if (!code) return { error: `Can't find end of ${fence === "```" ? "Pre" : "Code"} entity at byte offset ${byteOffset(src, i)}` };
      const entity: TgMessageEntity = { type: fence === "```" ? "pre" : "code", offset: text.length, length: code.body.length };
      if (language) entity.language = language;
      if (code.body.length > 0) entities.push(entity);
      text += code.body;
      i = code.end;
    } else if (c === "[") {
      stack.push({ type: "text_link", offset: text.length, byte: byteOffset(src, i) });
      i += 1;
    } else if (c === "]" && stack[stack.length - 1]?.type === "text_link") {
      const open = stack.pop()!;
      if (src[i + 1] !== "(") return { error: `Can't find end of a URL at byte offset ${byteOffset(src, i)}` };
      let url = "";
      let j = i + 2;
      while (j < src.length && src[j] !== ")") {
        if (src[j] === "\\" && j + 1 < src.length) j += 1;
        url += src[j];
        j += 1;
      }
      if (j >= src.length) return { error: `Can't find end of a URL at byte offset ${byteOffset(src, i + 1)}` };
      if (text.length > open.offset) entities.push({ type: "text_link", offset: open.offset, length: text.length - open.offset, url });
      i = j + 1;
    } else if (c === ">" && atLineStart) {
      // A quote line; the fake keeps the text and skips the blockquote entity.
      i += 1;
    } else if (RESERVED.has(c)) {
      return { error: `Character '${c}' is reserved and must be escaped with the preceding '\\'` };
    } else {
      text += c;
      i += 1;
    }
  }
  const open = stack.pop();
  if (open) return { error: `Can't find end of ${ENTITY_NAMES[open.type] ?? open.type} entity at byte offset ${open.byte}` };
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}

/** Parses the legacy Markdown parse mode: `*bold*`, `_italic_`, `` `code` ``, ```` ```pre``` ```` and `[text](url)`. */
export function parseLegacyMarkdown(src: string): ParsedText {
  let text = "";
  const entities: TgMessageEntity[] = [];
  let i = 0;
  const types: Record<string, string> = { "*": "bold", _: "italic", "`": "code" };
  while (i < src.length) {
    const c = src[i]!;
    const start = i;
    if (c === "\\" && i + 1 < src.length && "*_`[".includes(src[i + 1]!)) {
      text += src[i + 1];
      i += 2;
    } else if (src.startsWith("```", i) || c in types || c === "[") {
      const fence = src.startsWith("```", i) ? "```" : c === "[" ? "]" : c;
      const end = src.indexOf(fence, i + (fence === "]" ? 1 : fence.length));
      if (end < 0) return { error: `Can't find end of the entity starting at byte offset ${byteOffset(src, start)}` };
      let body = src.slice(i + (fence === "]" ? 1 : fence.length), end);
      i = end + fence.length;
      let entity: TgMessageEntity;
      if (fence === "]") {
        const url = /^\(([^)]*)\)/.exec(src.slice(i));
        if (!url) return { error: `Can't find end of the entity starting at byte offset ${byteOffset(src, start)}` };
        i += url[0].length;
        entity = { type: "text_link", offset: text.length, length: body.length, url: url[1]! };
      } else if (fence === "```") {
        body = body.replace(/^\n/, "");
        entity = { type: "pre", offset: text.length, length: body.length };
      } else {
        entity = { type: types[fence]!, offset: text.length, length: body.length };
      }
      if (body.length > 0) entities.push(entity);
      text += body;
    } else {
      text += c;
      i += 1;
    }
  }
  return { text, entities };
}
