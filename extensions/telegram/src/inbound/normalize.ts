/**
 * Telegram updates to the SDK's `InboundMessage`, and the key that keeps one chat (or one forum
 * topic) in order.
 */
import type { ChatKind, InboundMedia, InboundMessage } from "@openclaw/plugin-sdk";
import type { Message, MessageEntity, Update } from "grammy/types";

/** The bot itself, as `getMe` described it. */
export interface BotIdentity {
  id: number;
  username: string;
}

/** The General topic of a forum chat (messages there carry no thread id). */
const GENERAL_TOPIC = "1";

function chatKind(type: string): ChatKind {
  if (type === "private") return "direct";
  if (type === "channel") return "channel";
  return "group";
}

/** The message an update carries, if it is one we answer (new messages and channel posts). */
export function messageOf(update: Update): Message | undefined {
  const message = update?.message ?? update?.channel_post;
  // Bad input from the network is rejected here, never allowed to crash the account.
  if (!message || typeof message !== "object") return undefined;
  const chat = (message as { chat?: { id?: unknown; type?: unknown } }).chat;
  if (!chat || (typeof chat.id !== "number" && typeof chat.id !== "string") || typeof chat.type !== "string") return undefined;
  if (typeof (message as { message_id?: unknown }).message_id !== "number") return undefined;
  return message;
}

/** The forum topic of a message, or undefined outside forums. */
function topicOf(message: Message): string | undefined {
  if (message.is_topic_message && message.message_thread_id !== undefined) return String(message.message_thread_id);
  if (message.chat.type === "supergroup" && message.chat.is_forum) return GENERAL_TOPIC;
  return undefined;
}

/**
 * The sequencing key of an update: `<chatId>`, or `<chatId>:topic:<threadId>` in a forum, so a
 * chat's (or topic's) updates are handled in order and different chats concurrently. Updates
 * without a message share the key `other`.
 */
export function sequenceKey(update: Update): string {
  const message = messageOf(update);
  if (!message) return "other";
  const topic = topicOf(message);
  return topic === undefined ? String(message.chat.id) : `${message.chat.id}:topic:${topic}`;
}

function mediaOf(message: Message): InboundMedia[] {
  const media: InboundMedia[] = [];
  const add = (kind: InboundMedia["kind"], file: { file_id: string; file_size?: number; mime_type?: string; file_name?: string }) => {
    const entry: InboundMedia = { kind, fileId: file.file_id };
    if (file.mime_type !== undefined) entry.mimeType = file.mime_type;
    if (file.file_name !== undefined) entry.fileName = file.file_name;
    if (file.file_size !== undefined) entry.size = file.file_size;
    media.push(entry);
  };
  if (message.photo && message.photo.length > 0) {
    // Telegram lists sizes smallest first; the last is the original resolution.
    add("image", message.photo[message.photo.length - 1]!);
  }
  if (message.animation) add("video", message.animation);
  else if (message.document) add("document", message.document);
  if (message.video) add("video", message.video);
  if (message.video_note) add("video", message.video_note);
  if (message.audio) add("audio", message.audio);
  if (message.voice) add("voice", message.voice);
  if (message.sticker) add("sticker", message.sticker);
  return media;
}

/**
 * True when the message addresses the bot: a `mention` entity (or a plain `@username` in the
 * text) naming the bot, a `text_mention` of the bot's user, a `/command@botname`, or a reply to
 * one of the bot's messages (a forum topic's own header message does not count).
 */
export function mentionsBot(message: Message, bot: BotIdentity): boolean {
  const text = message.text ?? message.caption ?? "";
  const entities: readonly MessageEntity[] = message.entities ?? message.caption_entities ?? [];
  const handle = `@${bot.username}`.toLowerCase();
  for (const entity of entities) {
    const span = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === "mention" && span === handle) return true;
    if (entity.type === "text_mention" && entity.user.id === bot.id) return true;
    if (entity.type === "bot_command" && span.endsWith(handle)) return true;
  }
  const escaped = bot.username.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`(^|[^\\w@])@${escaped}(?![\\w])`, "i").test(text)) return true;
  const replied = message.reply_to_message;
  return replied !== undefined && replied.forum_topic_created === undefined && replied.from?.id === bot.id;
}

function senderOf(message: Message): InboundMessage["sender"] {
  const from = message.from;
  if (from) {
    const name = [from.first_name, from.last_name].filter(Boolean).join(" ");
    return { id: String(from.id), ...(name ? { name } : {}), ...(from.username ? { username: from.username } : {}), isBot: from.is_bot };
  }
  // Channel posts and anonymous group admins speak as a chat.
  const chat = message.sender_chat ?? message.chat;
  const title = "title" in chat && chat.title ? chat.title : undefined;
  return {
    id: String(chat.id),
    ...(title ? { name: title } : {}),
    ...("username" in chat && chat.username ? { username: chat.username } : {}),
    isBot: false,
  };
}

/**
 * Normalizes an update into an `InboundMessage`, or undefined for updates the agent does not
 * answer (edits, service messages without text or media, the bot's own messages, non-message
 * updates). Ids are strings; forum topics set `chat.threadId` (the General topic is "1").
 */
export function normalizeUpdate(update: Update, accountId: string, bot: BotIdentity, now = Date.now()): InboundMessage | undefined {
  const message = messageOf(update);
  if (!message) return undefined;
  if (message.from?.id === bot.id) return undefined;
  const media = mediaOf(message);
  const text = message.text ?? message.caption ?? "";
  if (text === "" && media.length === 0) return undefined;

  const chat: InboundMessage["chat"] = { kind: chatKind(message.chat.type), id: String(message.chat.id) };
  const topic = topicOf(message);
  if (topic !== undefined) {
    chat.threadId = topic;
    chat.threadKind = "topic";
  }
  if ("title" in message.chat && message.chat.title) chat.title = message.chat.title;

  const inbound: InboundMessage = {
    channel: "telegram",
    accountId,
    messageId: String(message.message_id),
    chat,
    sender: senderOf(message),
    text,
    mentionsBot: mentionsBot(message, bot),
    receivedAt: now,
  };
  if (media.length > 0) inbound.media = media;
  const replied = message.reply_to_message;
  if (replied && replied.forum_topic_created === undefined) {
    const repliedText = replied.text ?? replied.caption;
    inbound.replyTo = {
      messageId: String(replied.message_id),
      fromBot: replied.from?.id === bot.id,
      ...(repliedText !== undefined ? { text: repliedText } : {}),
    };
  }
  return inbound;
}
