import type { CardKit } from "./cardkit.js";
import { isObject, parseJsonObject } from "./card-json.js";
import { type FeishuAnswer, feishuError, ok } from "./envelope.js";
import type { FeishuStore } from "./store.js";
import type { FakeFeishuMessage } from "./types.js";

type Json = Record<string, unknown>;

/** What the message routes need. */
export interface MessageContext {
  store: FeishuStore;
  cards: CardKit;
  appId: string;
  /** The p2p chat of a user (receive_id_type=open_id lands there). */
  dmChatId(openId: string): string;
  /** uuid -> message_id for idempotent sends (the platform dedupes a uuid for an hour). */
  sentUuids: Map<string, string>;
}

const MSG_TYPES = new Set([
  "text",
  "post",
  "image",
  "file",
  "audio",
  "media",
  "sticker",
  "interactive",
  "share_chat",
  "share_user",
  "system",
]);
/** Serialized content limits: 150 KB for text, 30 KB for post and cards. */
const CONTENT_LIMIT: Record<string, number> = { text: 150 * 1024, post: 30 * 1024, interactive: 30 * 1024 };

/** The `data` of a message in API answers (create, reply, update, get). */
export function messageData(ctx: MessageContext, m: FakeFeishuMessage): Json {
  const fromBot = m.senderId === "bot";
  return {
    message_id: m.messageId,
    root_id: m.rootId,
    parent_id: m.parentId,
    thread_id: m.threadId,
    msg_type: m.msgType,
    create_time: String(m.createdAt),
    update_time: String(m.createdAt),
    deleted: m.deleted,
    updated: m.updates > 0,
    chat_id: m.chatId,
    sender: fromBot
      ? { id: ctx.appId, id_type: "app_id", sender_type: "app", tenant_key: "fake-tenant" }
      : { id: m.senderId, id_type: "open_id", sender_type: "user", tenant_key: "fake-tenant" },
    body: { content: JSON.stringify(m.content) },
    mentions: [],
  };
}

/** Checks `msg_type` and `content` (a JSON string) and returns the parsed content or an error answer. */
function checkContent(ctx: MessageContext, msgType: unknown, content: unknown): { content: Json } | { error: FeishuAnswer } {
  if (typeof msgType !== "string" || !MSG_TYPES.has(msgType)) return { error: feishuError("invalidParam", "msg_type") };
  if (typeof content !== "string") return { error: feishuError("invalidParam", "content must be a JSON string") };
  const limit = CONTENT_LIMIT[msgType];
  if (limit !== undefined && Buffer.byteLength(content) > limit) return { error: feishuError("contentTooLarge") };
  const parsed = parseJsonObject(content);
  if (!parsed) return { error: feishuError("invalidParam", "content is not JSON") };
  if (msgType === "text" && typeof parsed.text !== "string") return { error: feishuError("invalidParam", "text content needs text") };
  if (msgType === "image" && !(typeof parsed.image_key === "string" && ctx.store.resource(parsed.image_key))) {
    return { error: feishuError("invalidParam", "unknown image_key") };
  }
  if (msgType === "file" && !(typeof parsed.file_key === "string" && ctx.store.resource(parsed.file_key))) {
    return { error: feishuError("invalidParam", "unknown file_key") };
  }
  if (msgType === "interactive" && parsed.type === "card") {
    const cardId = entityCardId(parsed);
    if (cardId === undefined || !ctx.cards.has(cardId)) return { error: feishuError("cardNotFound") };
  }
  return { content: parsed };
}

function idempotent(ctx: MessageContext, body: Json, send: () => FeishuAnswer): FeishuAnswer {
  const uuid = typeof body.uuid === "string" && body.uuid ? body.uuid : undefined;
  const earlier = uuid ? ctx.store.get(ctx.sentUuids.get(uuid) ?? "") : undefined;
  if (earlier) return ok(messageData(ctx, earlier));
  const answer = send();
  const data = (answer.body as { data?: { message_id?: string } }).data;
  if (uuid && answer.status === 200 && data?.message_id) ctx.sentUuids.set(uuid, data.message_id);
  return answer;
}

/** POST /open-apis/im/v1/messages?receive_id_type=open_id|chat_id|user_id|union_id|email. */
export function createMessage(ctx: MessageContext, query: URLSearchParams, body: Json): FeishuAnswer {
  const idType = query.get("receive_id_type");
  if (!idType || !["open_id", "chat_id", "user_id", "union_id", "email"].includes(idType)) {
    return feishuError("invalidParam", "receive_id_type");
  }
  if (typeof body.receive_id !== "string" || !body.receive_id) return feishuError("invalidParam", "receive_id");
  const chatId = idType === "chat_id" ? body.receive_id : ctx.dmChatId(body.receive_id);
  return sendOnce(ctx, body, () => ({ chatId }));
}

/**
 * Sends a bot message where `place()` says, once per `uuid`: checks the content, takes a card entity
 * (which can be sent only once), stores the message.
 */
function sendOnce(
  ctx: MessageContext,
  body: Json,
  place: () => Pick<FakeFeishuMessage, "chatId" | "rootId" | "parentId" | "threadId">,
): FeishuAnswer {
  return idempotent(ctx, body, () => {
    const checked = checkContent(ctx, body.msg_type, body.content);
    if ("error" in checked) return checked.error;
    const cardId = entityCardId(checked.content);
    if (cardId !== undefined && !ctx.cards.takeForSending(cardId)) return feishuError("cardAlreadySent");
    const m = ctx.store.add({ ...place(), senderId: "bot", msgType: body.msg_type as string, content: checked.content });
    return ok(messageData(ctx, m));
  });
}

/** The card_id of `{type: "card", data: {card_id}}` content. */
function entityCardId(content: Json): string | undefined {
  const cardId = content.type === "card" && isObject(content.data) ? content.data.card_id : undefined;
  return typeof cardId === "string" ? cardId : undefined;
}

/** POST /open-apis/im/v1/messages/:id/reply `{content, msg_type, reply_in_thread?, uuid?}`. */
export function replyMessage(ctx: MessageContext, parentId: string, body: Json): FeishuAnswer {
  const parent = ctx.store.get(parentId);
  if (!parent || parent.deleted) return feishuError("messageNotFound");
  return sendOnce(ctx, body, () => ctx.store.replyPlacement(parent, body.reply_in_thread === true));
}

/**
 * PUT /open-apis/im/v1/messages/:id `{msg_type, content}` edits a text or post message;
 * PATCH `{content}` updates a card message (raw card JSON). Only the bot's own, undeleted messages.
 */
export function editMessage(ctx: MessageContext, messageId: string, body: Json, method: "PUT" | "PATCH"): FeishuAnswer {
  const m = ctx.store.get(messageId);
  if (!m || m.deleted || m.senderId !== "bot") return feishuError("messageNotFound");
  const msgType = method === "PATCH" ? "interactive" : body.msg_type;
  if (method === "PATCH" ? m.msgType !== "interactive" : !["text", "post"].includes(m.msgType) || msgType !== m.msgType) {
    return feishuError("messageNotEditable");
  }
  const checked = checkContent(ctx, msgType, body.content);
  if ("error" in checked) return checked.error;
  m.content = checked.content;
  m.updates += 1;
  return method === "PATCH" ? ok({}) : ok(messageData(ctx, m));
}

/** DELETE /open-apis/im/v1/messages/:id (recall). */
export function deleteMessage(ctx: MessageContext, messageId: string): FeishuAnswer {
  const m = ctx.store.get(messageId);
  if (!m || m.deleted || m.senderId !== "bot") return feishuError("messageNotFound");
  m.deleted = true;
  return ok({});
}

/** GET /open-apis/im/v1/messages/:id. */
export function getMessage(ctx: MessageContext, messageId: string): FeishuAnswer {
  const m = ctx.store.get(messageId);
  if (!m) return feishuError("messageNotFound");
  return ok({ items: [messageData(ctx, m)] });
}

function reactionData(ctx: MessageContext, reaction: { reactionId: string; emojiType: string }): Json {
  return {
    reaction_id: reaction.reactionId,
    operator: { operator_id: ctx.appId, operator_type: "app" },
    action_time: String(Date.now()),
    reaction_type: { emoji_type: reaction.emojiType },
  };
}

/** POST /messages/:id/reactions `{reaction_type: {emoji_type}}`, DELETE /messages/:id/reactions/:rid, GET list. */
export function reactionRoute(
  ctx: MessageContext,
  method: string,
  messageId: string,
  reactionId: string | undefined,
  body: Json,
): FeishuAnswer {
  const m = ctx.store.get(messageId);
  if (!m || m.deleted) return feishuError("messageNotFound");
  if (method === "POST" && !reactionId) {
    const emoji = isObject(body.reaction_type) ? body.reaction_type.emoji_type : undefined;
    if (typeof emoji !== "string" || !emoji) return feishuError("invalidParam", "reaction_type.emoji_type");
    return ok(reactionData(ctx, ctx.store.addReaction(messageId, emoji)));
  }
  if (method === "DELETE" && reactionId) {
    const removed = ctx.store.removeReaction(messageId, reactionId);
    return removed ? ok(reactionData(ctx, removed)) : feishuError("reactionNotFound");
  }
  if (method === "GET" && !reactionId) {
    const items = ctx.store
      .reactions(messageId)
      .filter((r) => !r.removed)
      .map((r) => reactionData(ctx, r));
    return ok({ items, has_more: false, page_token: "" });
  }
  return feishuError("notFound");
}

/** GET /messages/:id/resources/:key?type=image|file: the bytes of a key the message carries. */
export function messageResource(ctx: MessageContext, messageId: string, key: string, query: URLSearchParams): FeishuAnswer {
  const m = ctx.store.get(messageId);
  const type = query.get("type");
  if (!m) return feishuError("messageNotFound");
  if (type !== "image" && type !== "file") return feishuError("invalidParam", "type must be image or file");
  const bytes = JSON.stringify(m.content).includes(`"${key}"`) ? ctx.store.resource(key) : undefined;
  if (!bytes) return feishuError("resourceNotFound");
  return { status: 200, body: undefined, bytes, headers: { "content-type": "application/octet-stream" } };
}
