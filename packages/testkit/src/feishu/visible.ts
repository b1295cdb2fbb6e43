import type { CardKit } from "./cardkit.js";
import { isObject, markdownText } from "./card-json.js";
import type { FakeFeishuMessage } from "./types.js";

type Json = Record<string, unknown>;

/** Text of a post body: `{zh_cn: {title, content}}` (any locale) or `{title, content}`; paragraphs on lines. */
function postText(content: Json): string {
  const body = Array.isArray(content.content) ? content : Object.values(content).find((v) => isObject(v) && Array.isArray(v.content));
  if (!isObject(body)) return "";
  const lines = (body.content as unknown[]).map((paragraph) =>
    (Array.isArray(paragraph) ? paragraph : [])
      .map((node: unknown) => {
        if (!isObject(node)) return "";
        if (typeof node.text === "string") return node.text;
        if (node.tag === "at") return `@${String(node.user_name ?? node.user_id ?? "")}`;
        return "";
      })
      .join(""),
  );
  const title = typeof body.title === "string" && body.title ? [body.title] : [];
  return [...title, ...lines].join("\n");
}

/** What a person sees of one message: text, post text, or a card's markdown (entity or raw JSON). */
export function messageText(message: FakeFeishuMessage, cards: CardKit): string | undefined {
  const content = isObject(message.content) ? message.content : {};
  switch (message.msgType) {
    case "text":
      return typeof content.text === "string" ? content.text : "";
    case "post":
      return postText(content);
    case "interactive": {
      const cardId = content.type === "card" && isObject(content.data) ? content.data.card_id : undefined;
      const card = typeof cardId === "string" ? cards.current(cardId) : content;
      return card ? markdownText(card).join("\n") : "";
    }
    default:
      return undefined;
  }
}

/** The bot's undeleted text, post and card messages in a chat, joined by "\n". */
export function visibleText(messages: FakeFeishuMessage[], cards: CardKit): string {
  return messages
    .filter((m) => m.senderId === "bot" && !m.deleted)
    .map((m) => messageText(m, cards))
    .filter((text): text is string => text !== undefined)
    .join("\n");
}
