/**
 * Markdown (as models write it) to the plain text QQ shows when the bot has no markdown
 * permission (`markdownSupport: false`): emphasis and code marks are dropped, links keep their
 * address in brackets, headings become their own line, lists keep bullets or numbers, quotes keep
 * `> `, code blocks keep their text, tables become rows separated by ` | `.
 */
import { decodeCharacterReferences } from "@openclaw/plugin-sdk";
import { Lexer, type Token, type Tokens } from "marked";

const decode = decodeCharacterReferences;

function inline(tokens: readonly Token[] | undefined): string {
  let out = "";
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "strong":
      case "em":
      case "del":
        out += inline((token as Tokens.Strong).tokens);
        break;
      case "codespan":
        out += decode((token as Tokens.Codespan).text);
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
    case "heading":
      return inline((token as Tokens.Paragraph).tokens);
    case "code":
      return (token as Tokens.Code).text;
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
      return [row(table.header), ...table.rows.map(row)].join("\n");
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

/** The plain text of a Markdown message; text without Markdown comes back as it was. */
export function markdownToPlain(markdown: string): string {
  return blocks(new Lexer({ gfm: true }).lex(markdown));
}
