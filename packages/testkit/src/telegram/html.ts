import type { TgMessageEntity } from "./types.js";

/** Visible text plus entities, or the reason Telegram would refuse the markup. */
export type ParsedText = { text: string; entities: TgMessageEntity[] } | { error: string };

/** Tags Telegram's HTML parse mode accepts, mapped to the entity type they produce. */
const TAG_ENTITY: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  code: "code",
  pre: "pre",
  a: "text_link",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
  "tg-time": "date_time",
};

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  name: string;
  attrs: Record<string, string>;
  /** Visible-text offset (UTF-16) where the tag opened. */
  offset: number;
  /** Language of a `<pre><code class="language-x">` block, set when the inner code closes. */
  language?: string;
}

function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index), "utf8");
}

/** Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;` and numeric entities at `i`; anything else is a literal `&`. */
function decodeEntity(html: string, i: number): { char: string; next: number } {
  const match = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/.exec(html.slice(i, i + 12));
  if (match) {
    const body = match[1]!;
    let char: string | undefined;
    if (body.startsWith("#x") || body.startsWith("#X")) char = safeCodePoint(Number.parseInt(body.slice(2), 16));
    else if (body.startsWith("#")) char = safeCodePoint(Number.parseInt(body.slice(1), 10));
    else char = NAMED_ENTITIES[body.toLowerCase()];
    if (char !== undefined) return { char, next: i + match[0].length };
  }
  return { char: "&", next: i + 1 };
}

function safeCodePoint(code: number): string | undefined {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** Reads `name="value"`, `name='value'`, `name=value` or a bare `name` pairs until `>`. */
function readAttributes(html: string, start: number, tag: string): { attrs: Record<string, string>; end: number } | { error: string } {
  const attrs: Record<string, string> = {};
  let i = start;
  for (;;) {
    while (i < html.length && /\s/.test(html[i]!)) i += 1;
    if (i >= html.length) return { error: `Unclosed start tag at byte offset ${byteOffset(html, start)}` };
    if (html[i] === ">") return { attrs, end: i + 1 };
    if (html[i] === "/" && html[i + 1] === ">") return { attrs, end: i + 2 };
    const nameMatch = /^[a-zA-Z0-9_-]+/.exec(html.slice(i));
    if (!nameMatch)
      return { error: `Expected equal sign in declaration of an attribute of the tag "${tag}" at byte offset ${byteOffset(html, i)}` };
    const name = nameMatch[0].toLowerCase();
    i += nameMatch[0].length;
    while (i < html.length && /\s/.test(html[i]!)) i += 1;
    if (html[i] !== "=") {
      attrs[name] = "";
      continue;
    }
    i += 1;
    while (i < html.length && /\s/.test(html[i]!)) i += 1;
    const quote = html[i];
    let raw: string;
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      if (close < 0) return { error: `Unclosed start tag at byte offset ${byteOffset(html, start)}` };
      raw = html.slice(i + 1, close);
      i = close + 1;
    } else {
      const unquoted = /^[^\s>]*/.exec(html.slice(i))![0];
      raw = unquoted;
      i += unquoted.length;
    }
    attrs[name] = raw.replace(/&(lt|gt|amp|quot);/g, (_m, n: string) => NAMED_ENTITIES[n]!);
  }
}

function entityFor(tag: OpenTag, end: number): TgMessageEntity | undefined {
  const length = end - tag.offset;
  if (length <= 0) return undefined;
  const type = TAG_ENTITY[tag.name]!;
  const entity: TgMessageEntity = { type, offset: tag.offset, length };
  if (tag.name === "a") {
    const href = tag.attrs.href ?? "";
    const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
    if (mention)
      return { type: "text_mention", offset: tag.offset, length, user: { id: Number(mention[1]), is_bot: false, first_name: "" } };
    if (href === "") return undefined;
    entity.url = href;
  }
  if (tag.name === "pre" && tag.language) entity.language = tag.language;
  if (tag.name === "blockquote" && "expandable" in tag.attrs) entity.type = "expandable_blockquote";
  if (tag.name === "tg-emoji") entity.custom_emoji_id = tag.attrs["emoji-id"] ?? "";
  return entity;
}

/**
 * Parses Telegram's HTML parse mode roughly as the Bot API does: only the documented tags,
 * balanced and properly nested; `&lt; &gt; &amp; &quot;` and numeric entities decoded. Errors
 * use Telegram's wording ("Unsupported start tag "x" at byte offset N", "Can't find end tag
 * corresponding to start tag "b"", …) without the "Bad Request: can't parse entities: " prefix.
 */
export function parseHtml(html: string): ParsedText {
  let text = "";
  const entities: TgMessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < html.length) {
    const c = html[i]!;
    if (c === "&") {
      const { char, next } = decodeEntity(html, i);
      text += char;
      i = next;
      continue;
    }
    if (c !== "<") {
      text += c;
      i += 1;
      continue;
    }
    const tagStart = i;
    if (html[i + 1] === "/") {
      const close = html.indexOf(">", i);
      if (close < 0) return { error: `Unclosed end tag at byte offset ${byteOffset(html, tagStart)}` };
      const name = html
        .slice(i + 2, close)
        .trim()
        .toLowerCase();
      const open = stack.pop();
      if (!open) return { error: `Unexpected end tag at byte offset ${byteOffset(html, tagStart)}` };
      if (name !== "" && name !== open.name) {
        return { error: `Unmatched end tag at byte offset ${byteOffset(html, tagStart)}, expected "</${open.name}>", found "</${name}>"` };
      }
      const parent = stack[stack.length - 1];
      if (open.name === "code" && parent?.name === "pre") {
        // <pre><code class="language-x"> is one pre entity carrying the language.
        const language = /^language-(.+)$/.exec(open.attrs.class ?? "")?.[1];
        if (language) parent.language = language;
      } else {
        const entity = entityFor(open, text.length);
        if (entity) entities.push(entity);
      }
      i = close + 1;
      continue;
    }
    const nameMatch = /^[a-zA-Z0-9-]*/.exec(html.slice(i + 1))!;
    const name = nameMatch[0].toLowerCase();
    if (!(name in TAG_ENTITY)) return { error: `Unsupported start tag "${name}" at byte offset ${byteOffset(html, tagStart)}` };
    const read = readAttributes(html, i + 1 + nameMatch[0].length, name);
    if ("error" in read) return read;
    if (name === "span" && read.attrs.class !== "tg-spoiler") {
      return { error: `Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(html, tagStart)}` };
    }
    stack.push({ name, attrs: read.attrs, offset: text.length });
    i = read.end;
  }
  const unclosed = stack.pop();
  if (unclosed) return { error: `Can't find end tag corresponding to start tag "${unclosed.name}"` };
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}
