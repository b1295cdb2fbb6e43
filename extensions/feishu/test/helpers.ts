// Shared by the plugin's tests: what a Feishu user sees of the bot's messages, on the fake platform.
import type { FakeFeishu, FakeFeishuMessage } from "@openclaw/testkit/feishu";

/** The text a message shows: a post's markdown, a text's text, or the markdown of the card it carries. */
export function shownText(fake: FakeFeishu, message: FakeFeishuMessage): string {
  const content = message.content as Record<string, unknown> | undefined;
  if (message.msgType === "interactive") {
    const cardId = (content?.data as { card_id?: string } | undefined)?.card_id;
    const card = fake.cards().find((c) => c.cardId === cardId);
    return card ? Object.values(card.elements).join("\n") : "";
  }
  if (message.msgType === "text") return String((content as { text?: unknown })?.text ?? "");
  if (message.msgType === "post") {
    const locale = (content?.zh_cn ?? content?.en_us ?? content) as { content?: Array<Array<{ text?: string }>> };
    return (locale.content ?? []).map((p) => p.map((e) => e.text ?? "").join("")).join("\n");
  }
  return `[${message.msgType}]`;
}

/** The bot's messages in a chat (undeleted), as a user sees them. */
export function botMessages(fake: FakeFeishu, chatId: string): Array<FakeFeishuMessage & { text: string }> {
  return fake
    .messages(chatId)
    .filter((m) => m.senderId === "bot" && !m.deleted)
    .map((m) => ({ ...m, text: shownText(fake, m) }));
}

/** A group the tests use. */
export const GROUP_CHAT = "oc_group0000000000000000000000001";
