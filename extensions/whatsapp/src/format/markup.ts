/**
 * Markdown (as models write it) -> WhatsApp's own markup: `*bold*`, `_italic_`, `~strike~`,
 * `` `inline code` `` and ``` blocks ```, `> ` quotes, `- ` and `1. ` lists. Headings become bold
 * lines, links keep their address in brackets, tables become rows separated by ` | `. Text without
 * Markdown comes back as it was.
 */
import { decodeCharacterReferences } from "@openclaw/plugin-sdk";
import { Lexer, type Token, type Tokens } from "marked";

const decode = decodeCharacterReferences;

/** Wraps `text` in a marker, keeping surrounding spaces outside it (WhatsApp needs the marker to touch the word). */
function wrap(marker: string, text: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  if (match[2] === "") return text;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
}

function inline(tokens: readonly Token[] | undefined): string {
  let out = "";
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "strong":
        out += wrap("*", inline((token as Tokens.Strong).tokens));
        break;
      case "em":
        out += wrap("_", inline((token as Tokens.Em).tokens));
        break;
      case "del":
        out += wrap("~", inline((token as Tokens.Del).tokens));
        break;
      case "codespan":
        out += `\`${decode((token as Tokens.Codespan).text)}\``;
        break;
      case "link": {
        const link = token as Tokens.Link;
        const text = inline(link.tokens);
        out += text === link.href || link.href.startsWith("mailto:") ? text : `${text} (${link.href})`;
        break;
      }
      case "image":
        out += (token as Tokens.Image).href;
        break;
      case "br":
        out += "\n";
        break;
      case "text": {
        const text = token as Tokens.Text;
        out += text.tokens ? inline(text.tokens) : decode(text.text);
        break;
      }
      default:
        out += decode((token as { raw: string }).raw);
    }
  }
  return out;
}

function block(token: Token): string {
  switch (token.type) {
    case "paragraph":
      return inline((token as Tokens.Paragraph).tokens);
    case "heading":
      return wrap("*", inline((token as Tokens.Heading).tokens));
    case "code":
      return `\`\`\`\n${(token as Tokens.Code).text}\n\`\`\``;
    case "blockquote":
      return blocks((token as Tokens.Blockquote).tokens)
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n");
    case "list": {
      const list = token as Tokens.List;
      const start = typeof list.start === "number" ? list.start : 1;
      return list.items
        .map((item, i) => {
          const marker = list.ordered ? `${start + i}. ` : "- ";
          const body = blocks(item.tokens).replace(/\n/g, `\n${" ".repeat(marker.length)}`);
          return `${marker}${body}`;
        })
        .join("\n");
    }
    case "table": {
      const table = token as Tokens.Table;
      const row = (cells: readonly Tokens.TableCell[]) => cells.map((c) => inline(c.tokens)).join(" | ");
      return [wrap("*", row(table.header)), ...table.rows.map(row)].join("\n");
    }
    case "hr":
      return "———";
    case "space":
      return "";
    case "text": {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decode(text.text);
    }
    default:
      return decode((token as { raw: string }).raw).trimEnd();
  }
}

function blocks(tokens: readonly Token[]): string {
  return tokens
    .map(block)
    .filter((text) => text !== "")
    .join("\n\n");
}

/** The WhatsApp markup of a Markdown message. */
export function markdownToWhatsApp(markdown: string): string {
  return blocks(new Lexer({ gfm: true }).lex(markdown));
}
