import { parseHtml, type ParsedText } from "./html.js";
import { parseLegacyMarkdown, parseMarkdownV2 } from "./markdown.js";
import type { TgMessageEntity } from "./types.js";

/** Visible text and entities, or the full Bot API error description. */
export type RenderedText = { text: string; entities: TgMessageEntity[] } | { description: string };

/**
 * Turns outgoing text into what the user sees, as the Bot API does: parses `parse_mode`
 * ("HTML", "MarkdownV2", "Markdown"; none or explicit `entities` keep the text as is), then trims
 * surrounding whitespace and shifts entities to match. An unknown parse mode is an error.
 */
export function renderOutgoingText(raw: string, parseMode: unknown, explicitEntities: unknown): RenderedText {
  let parsed: ParsedText;
  if (Array.isArray(explicitEntities)) parsed = { text: raw, entities: explicitEntities as TgMessageEntity[] };
  else if (parseMode === undefined || parseMode === null || parseMode === "") parsed = { text: raw, entities: [] };
  else if (typeof parseMode === "string" && parseMode.toLowerCase() === "html") parsed = parseHtml(raw);
  else if (typeof parseMode === "string" && parseMode.toLowerCase() === "markdownv2") parsed = parseMarkdownV2(raw);
  else if (typeof parseMode === "string" && parseMode.toLowerCase() === "markdown") parsed = parseLegacyMarkdown(raw);
  else return { description: "Bad Request: unsupported parse_mode" };
  if ("error" in parsed) return { description: `Bad Request: can't parse entities: ${parsed.error}` };
  return trimWithEntities(parsed.text, parsed.entities);
}

function trimWithEntities(text: string, entities: TgMessageEntity[]): { text: string; entities: TgMessageEntity[] } {
  const lead = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const out: TgMessageEntity[] = [];
  for (const entity of entities) {
    const start = Math.max(0, entity.offset - lead);
    const end = Math.min(trimmed.length, entity.offset + entity.length - lead);
    if (end > start) out.push({ ...entity, offset: start, length: end - start });
  }
  return { text: trimmed, entities: out };
}

/**
 * Entities Telegram derives from a user's plain text: `@username` mentions, `/command` and
 * `/command@bot` bot commands, and `http(s)://` URLs. Offsets are UTF-16, as in the Bot API.
 */
export function autoEntities(text: string): TgMessageEntity[] {
  const entities: TgMessageEntity[] = [];
  const patterns: Array<[RegExp, string]> = [
    [/(^|[^A-Za-z0-9_@/])(@[A-Za-z][A-Za-z0-9_]{4,31})(?![A-Za-z0-9_])/g, "mention"],
    [/(^|\s)(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z][A-Za-z0-9_]{4,31})?)(?![A-Za-z0-9_])/g, "bot_command"],
    [/(^|[^A-Za-z0-9_])(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'])/g, "url"],
  ];
  for (const [pattern, type] of patterns) {
    for (const match of text.matchAll(pattern)) {
      const offset = match.index + match[1]!.length;
      entities.push({ type, offset, length: match[2]!.length });
    }
  }
  return entities.sort((a, b) => a.offset - b.offset);
}
