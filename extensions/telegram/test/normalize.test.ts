import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { normalizeUpdate, sequenceKey } from "../src/index.js";

const bot = { id: 99, username: "claw_bot" };
const user = { id: 7, is_bot: false, first_name: "Bob", last_name: "Stone", username: "bob" };
const group = { id: -100123, type: "supergroup" as const, title: "Team" };

function update(message: Record<string, unknown>, kind: "message" | "channel_post" = "message"): Update {
  return { update_id: 1, [kind]: { message_id: 10, date: 1_700_000_000, ...message } } as unknown as Update;
}

describe("normalizeUpdate", () => {
  it("maps chat types to chat kinds and stringifies ids", () => {
    const dm = normalizeUpdate(update({ chat: { id: 7, type: "private", first_name: "Bob" }, from: user, text: "hi" }), "default", bot, 5);
    expect(dm).toEqual({
      channel: "telegram",
      accountId: "default",
      messageId: "10",
      chat: { kind: "direct", id: "7" },
      sender: { id: "7", name: "Bob Stone", username: "bob", isBot: false },
      text: "hi",
      mentionsBot: false,
      receivedAt: 5,
    });
    expect(normalizeUpdate(update({ chat: { id: -5, type: "group", title: "G" }, from: user, text: "x" }), "a", bot)?.chat.kind).toBe(
      "group",
    );
    const post = normalizeUpdate(
      update(
        {
          chat: { id: -1009, type: "channel", title: "News", username: "news" },
          sender_chat: { id: -1009, type: "channel", title: "News", username: "news" },
          text: "post",
        },
        "channel_post",
      ),
      "a",
      bot,
    );
    expect(post).toMatchObject({
      chat: { kind: "channel", id: "-1009", title: "News" },
      sender: { id: "-1009", name: "News", username: "news", isBot: false },
    });
  });

  it("detects a text_mention of the bot and ignores a forum topic's header as a reply target", () => {
    const text = "hey Claw";
    const mention = normalizeUpdate(
      update({
        chat: group,
        from: user,
        text,
        entities: [{ type: "text_mention", offset: 4, length: 4, user: { id: 99, is_bot: true, first_name: "Claw" } }],
      }),
      "a",
      bot,
    );
    expect(mention?.mentionsBot).toBe(true);
    const header = {
      message_id: 3,
      date: 1,
      chat: group,
      from: { id: 99, is_bot: true, first_name: "Claw" },
      forum_topic_created: { name: "Ops", icon_color: 1 },
    };
    const inTopic = normalizeUpdate(
      update({
        chat: { ...group, is_forum: true },
        from: user,
        text: "plain",
        message_thread_id: 3,
        is_topic_message: true,
        reply_to_message: header,
      }),
      "a",
      bot,
    );
    expect(inTopic).toMatchObject({ mentionsBot: false, chat: { threadId: "3" } });
    expect(inTopic?.replyTo).toBeUndefined();
  });

  it("skips the bot's own messages, service messages and edits; keeps media-only messages", () => {
    expect(
      normalizeUpdate(update({ chat: group, from: { id: 99, is_bot: true, first_name: "Claw" }, text: "me" }), "a", bot),
    ).toBeUndefined();
    expect(normalizeUpdate(update({ chat: group, from: user, new_chat_members: [user] }), "a", bot)).toBeUndefined();
    expect(
      normalizeUpdate(
        { update_id: 2, edited_message: { message_id: 1, date: 1, chat: group, from: user, text: "e", edit_date: 2 } } as unknown as Update,
        "a",
        bot,
      ),
    ).toBeUndefined();
    const gif = normalizeUpdate(
      update({
        chat: group,
        from: user,
        animation: { file_id: "A", file_unique_id: "a", width: 1, height: 1, duration: 1 },
        document: { file_id: "A", file_unique_id: "a" },
      }),
      "a",
      bot,
    );
    expect(gif?.media).toEqual([{ kind: "video", fileId: "A" }]);
    const voice = normalizeUpdate(
      update({ chat: group, from: user, voice: { file_id: "V", file_unique_id: "v", duration: 3, mime_type: "audio/ogg" } }),
      "a",
      bot,
    );
    expect(voice?.media).toEqual([{ kind: "voice", fileId: "V", mimeType: "audio/ogg" }]);
  });
});

describe("sequenceKey", () => {
  it("keys by chat, and by topic in forums", () => {
    expect(sequenceKey(update({ chat: group, from: user, text: "x" }))).toBe("-100123");
    expect(
      sequenceKey(update({ chat: { ...group, is_forum: true }, from: user, text: "x", message_thread_id: 4, is_topic_message: true })),
    ).toBe("-100123:topic:4");
    expect(sequenceKey(update({ chat: { ...group, is_forum: true }, from: user, text: "x" }))).toBe("-100123:topic:1");
    expect(sequenceKey({ update_id: 5 } as Update)).toBe("other");
  });
});
