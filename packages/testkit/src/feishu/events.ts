import { newId } from "./ids.js";
import type { FeishuStore } from "./store.js";
import type { FakeFeishuUserMessage } from "./types.js";

type Json = Record<string, unknown>;

/** What an event needs to know about the app. */
export interface EventContext {
  appId: string;
  verificationToken: string;
  store: FeishuStore;
  clock: () => number;
  dmChatId(openId: string): string;
}

const userId = (openId: string) => ({
  open_id: openId,
  union_id: `on_${openId.replace(/^ou_/, "")}`,
  user_id: openId.replace(/^ou_/, "u"),
});

/** A schema 2.0 event envelope. */
export function envelope(ctx: EventContext, eventType: string, event: Json, eventId = newId("")): Json {
  return {
    schema: "2.0",
    header: {
      event_id: eventId,
      event_type: eventType,
      create_time: String(ctx.clock()),
      token: ctx.verificationToken,
      app_id: ctx.appId,
      tenant_key: "fake-tenant",
    },
    event,
  };
}

/** The message type and content JSON of a user's message; uploads its bytes as message resources. */
function userContent(ctx: EventContext, msg: FakeFeishuUserMessage, mentionKeys: string[]): { type: string; content: Json } {
  if (msg.image) {
    const key = newId("img_v3_");
    ctx.store.addResource(key, msg.image.bytes);
    return { type: "image", content: { image_key: key } };
  }
  if (msg.file) {
    const key = newId("file_v3_");
    ctx.store.addResource(key, msg.file.bytes);
    return { type: "file", content: { file_key: key, file_name: msg.file.name } };
  }
  if (msg.post !== undefined) return { type: "post", content: msg.post as Json };
  const text = msg.text ?? "";
  const missing = mentionKeys.filter((key) => !text.includes(key));
  return { type: "text", content: { text: [...missing, text].filter(Boolean).join(" ") } };
}

/**
 * Builds the `im.message.receive_v1` event for a user's message and records the message in its
 * chat (so replies and resource downloads find it). Mentions get keys `@_user_1`, `@_user_2`...
 */
export function messageReceiveEvent(ctx: EventContext, msg: FakeFeishuUserMessage): { event: Json; eventId: string; messageId: string } {
  const chatType = msg.chatType ?? "p2p";
  if (chatType === "group" && !msg.chatId)
    throw new Error('fake Feishu: a group message needs a chatId (userSends({ chatType: "group", chatId: "oc_..." }))');
  const chatId = msg.chatId ?? ctx.dmChatId(msg.openId);
  const mentions = (msg.mentions ?? []).map((m, i) => ({
    key: `@_user_${i + 1}`,
    id: userId(m.openId),
    name: m.name,
    tenant_key: "fake-tenant",
  }));
  const { type, content } = userContent(
    ctx,
    msg,
    mentions.map((m) => m.key),
  );
  const stored = ctx.store.add({
    messageId: msg.messageId ?? newId("om_"),
    chatId,
    senderId: msg.openId,
    msgType: type,
    content,
    rootId: msg.rootId,
    parentId: msg.parentId,
    threadId: msg.threadId,
  });
  const eventId = msg.eventId ?? newId("");
  const message: Json = {
    message_id: stored.messageId,
    root_id: msg.rootId,
    parent_id: msg.parentId,
    thread_id: msg.threadId,
    create_time: String(stored.createdAt),
    update_time: String(stored.createdAt),
    chat_id: chatId,
    chat_type: chatType,
    message_type: type,
    content: JSON.stringify(content),
    user_agent: "Mozilla/5.0 (Macintosh) Lark/7.30.0",
  };
  if (mentions.length > 0) message.mentions = mentions;
  const event = { sender: { sender_id: userId(msg.openId), sender_type: "user", tenant_key: "fake-tenant" }, message };
  return { event: envelope(ctx, "im.message.receive_v1", event, eventId), eventId, messageId: stored.messageId };
}
