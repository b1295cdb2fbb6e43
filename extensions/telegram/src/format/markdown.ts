/**
 * Markdown (as models write it) to Telegram's HTML parse mode. Telegram accepts only a few tags
 * (`b i u s a code pre blockquote tg-spoiler`), so everything else is mapped onto them or shown as
 * text: headings become bold lines, lists get bullets, tables become a monospace block, and any
 * raw HTML in the Markdown is escaped and shown literally.
 */
import { decodeCharacterReferences } from "@openclaw/plugin-sdk";
import { Lexer, type Token, type Tokens } from "marked";

/** Escapes text for Telegram HTML: `&`, `<` and `>` (and `"` for attribute values). */
export function escapeHtml(text: string, attribute = false): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return attribute ? escaped.replace(/"/g, "&quot;") : escaped;
}

/** Link targets Telegram accepts in `<a href>`; others are shown as plain text. */
const SAFE_HREF = /^(https?:\/\/|tg:\/\/|mailto:)/i;

interface RenderState {
  inLink: boolean;
  inQuote: boolean;
}

function inline(tokens: readonly Token[] | undefined, state: RenderState): string {
  let out = "";
  for (const token of tokens ?? []) out += inlineToken(token, state);
  return out;
}

function inlineToken(token: Token, state: RenderState): string {
  switch (token.type) {
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens && t.tokens.length > 0 ? inline(t.tokens, state) : escapeHtml(decodeCharacterReferences(t.text));
    }
    case "escape":
      return escapeHtml((token as Tokens.Escape).text);
    case "strong":
      return `<b>${inline((token as Tokens.Strong).tokens, state)}</b>`;
    case "em":
      return `<i>${inline((token as Tokens.Em).tokens, state)}</i>`;
    case "del":
      return `<s>${inline((token as Tokens.Del).tokens, state)}</s>`;
    case "codespan":
      return `<code>${escapeHtml((token as Tokens.Codespan).text)}</code>`;
    case "br":
      return "\n";
    case "link": {
      const link = token as Tokens.Link;
      const inner = inline(link.tokens, { ...state, inLink: true });
      if (state.inLink || !SAFE_HREF.test(link.href)) return inner;
      return `<a href="${escapeHtml(link.href, true)}">${inner}</a>`;
    }
    case "image": {
      const image = token as Tokens.Image;
      const alt = escapeHtml(image.text || image.href);
      if (state.inLink || !SAFE_HREF.test(image.href)) return alt;
      return `<a href="${escapeHtml(image.href, true)}">${alt}</a>`;
    }
    case "checkbox":
      return (token as Tokens.Checkbox).checked ? "☑ " : "☐ ";
    default:
      // Raw inline HTML and anything unknown is shown as the user wrote it.
      return escapeHtml("text" in token && typeof token.text === "string" ? token.text : token.raw);
  }
}

/** The visible text of inline tokens, without markup (for table cells). */
function plainInline(tokens: readonly Token[] | undefined): string {
  let out = "";
  for (const token of tokens ?? []) {
    const t = token as Tokens.Generic;
    if (Array.isArray(t.tokens) && t.tokens.length > 0) out += plainInline(t.tokens);
    else if (t.type === "br") out += " ";
    else if (typeof t.text === "string") out += t.type === "text" ? decodeCharacterReferences(t.text) : t.text;
  }
  return out;
}

function renderTable(table: Tokens.Table): string {
  const rows = [table.header, ...table.rows].map((row) => row.map((cell) => plainInline(cell.tokens).trim()));
  const widths = table.header.map((_, col) => Math.max(...rows.map((row) => [...(row[col] ?? "")].length)));
  const line = (row: string[]) =>
    row
      .map((cell, col) => cell.padEnd(widths[col] ?? 0))
      .join(" | ")
      .trimEnd();
  const lines = [line(rows[0]!), widths.map((w) => "-".repeat(Math.max(1, w))).join("-|-"), ...rows.slice(1).map(line)];
  return `<pre>${escapeHtml(lines.join("\n"))}</pre>`;
}

function renderList(list: Tokens.List, state: RenderState, depth: number): string {
  const indent = "  ".repeat(depth);
  const start = typeof list.start === "number" ? list.start : 1;
  const items = list.items.map((item, index) => {
    const marker = list.ordered ? `${start + index}. ` : "• ";
    const parts: string[] = [];
    let checkbox = "";
    for (const child of item.tokens) {
      if (child.type === "checkbox") checkbox = (child as Tokens.Checkbox).checked ? "☑ " : "☐ ";
      else if (child.type === "list") parts.push(renderList(child as Tokens.List, state, depth + 1));
      else if (child.type !== "space") parts.push(blockToken(child, state, depth + 1));
    }
    if (checkbox !== "") parts[0] = checkbox + (parts[0] ?? "");
    // A list that starts right after the marker ("- - a") sits on the marker's line, unindented.
    const body = parts
      .filter((p) => p !== "")
      .join("\n")
      .replace(/^ +/, "");
    return body === "" ? `${indent}${marker.trimEnd()}` : `${indent}${marker}${body}`;
  });
  return items.join(list.loose ? "\n\n" : "\n");
}

function blockToken(token: Token, state: RenderState, depth: number): string {
  switch (token.type) {
    case "space":
    case "def":
      return "";
    case "paragraph":
      return inline((token as Tokens.Paragraph).tokens, state);
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens ? inline(t.tokens, state) : escapeHtml(decodeCharacterReferences(t.text));
    }
    case "heading":
      return `<b>${inline((token as Tokens.Heading).tokens, state)}</b>`;
    case "code": {
      const code = token as Tokens.Code;
      const lang = (code.lang ?? "").trim().split(/\s+/)[0] ?? "";
      const cls = /^[\w#+.-]+$/.test(lang) ? ` class="language-${escapeHtml(lang, true)}"` : "";
      return `<pre><code${cls}>${escapeHtml(code.text)}</code></pre>`;
    }
    case "blockquote": {
      const body = blocks((token as Tokens.Blockquote).tokens, { ...state, inQuote: true }, depth);
      // Telegram does not nest blockquotes: an inner quote joins the outer one.
      return state.inQuote || body === "" ? body : `<blockquote>${body}</blockquote>`;
    }
    case "list":
      return renderList(token as Tokens.List, state, 0);
    case "hr":
      return "———";
    case "table":
      return renderTable(token as Tokens.Table);
    case "checkbox":
      return (token as Tokens.Checkbox).checked ? "☑ " : "☐ ";
    default:
      // Raw HTML blocks and anything unknown: shown literally.
      return escapeHtml(token.raw.replace(/\n+$/, ""));
  }
}

/** Joins blocks as the source separated them: a blank line stays a blank line, a newline a newline. */
function blocks(tokens: readonly Token[], state: RenderState, depth: number): string {
  let out = "";
  let blankBefore = false;
  for (const token of tokens) {
    if (token.type === "space") {
      blankBefore = true;
      continue;
    }
    const html = blockToken(token, state, depth);
    if (html === "") continue;
    if (out !== "") out += blankBefore ? "\n\n" : "\n";
    out += html;
    blankBefore = /\n[ \t]*\n[ \t]*$/.test(token.raw);
  }
  return out;
}

/**
 * Renders Markdown as Telegram HTML. Supports bold, italic, strikethrough, inline code, fenced
 * and indented code (`<pre><code class="language-x">`), links (http, https, tg, mailto; other
 * schemes become plain text), blockquotes, headings (bold), lists, tables (monospace) and rules.
 * The visible text is no longer than the Markdown source except for padded tables, so a chunk
 * of `textChunkLimit` (4000) source characters fits Telegram's 4096; `splitTelegramHtml` covers
 * the rest.
 */
export function markdownToTelegramHtml(markdown: string): string {
  const tokens = new Lexer({ gfm: true, breaks: false }).lex(markdown);
  return blocks(tokens, { inLink: false, inQuote: false }, 0);
}
