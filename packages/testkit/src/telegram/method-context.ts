import { badRequest, optionalBool, optionalInt, optionalString } from "./errors.js";
import { renderOutgoingText } from "./entities.js";
import { asReplyTarget, nowSeconds, type StoredMessage, type TelegramStore } from "./store.js";
import type { FakeTelegramCall, TgChat, TgMessage, TgMessageEntity } from "./types.js";

/** What a built-in method handler gets. */
export interface MethodContext {
  store: TelegramStore;
  params: Record<string, any>;
  call: FakeTelegramCall;
  /** Aborted when the client goes away, the server closes, or (getUpdates) a newer poll takes over. */
  signal: AbortSignal;
  rejectUnknownChats: boolean;
  /** Wakes held long polls and waiters after a state change. */
  notify(): void;
  /** Resolves on the next `notify()` or when `signal` aborts. */
  changed(): Promise<void>;
}

export type MethodHandler = (ctx: MethodContext) => unknown | Promise<unknown>;

/** Telegram's limits on visible text length (UTF-16 units, after entity parsing). */
export const TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;

/** Parses text + parse_mode (+ explicit entities) into what the user sees, or throws Telegram's error. */
export function renderOrThrow(raw: string, parseMode: unknown, entities: unknown): { text: string; entities: TgMessageEntity[] } {
  const rendered = renderOutgoingText(raw, parseMode, entities);
  if ("description" in rendered) throw badRequest(rendered.description.replace(/^Bad Request: /, ""));
  return rendered;
}

/**
 * Resolves the chat, thread and reply target of an outgoing message and returns the message
 * skeleton (id, date, chat, from, thread, reply, markup). Throws Telegram's errors for an unknown
 * chat, thread or reply target.
 */
export function outgoingSkeleton(ctx: MethodContext): { chat: TgChat; message: TgMessage } {
  const { params, store } = ctx;
  const chat = store.resolveChat(params.chat_id, ctx.rejectUnknownChats);
  const threadId = optionalInt(params, "message_thread_id");
  store.checkThread(chat, threadId);

  const reply = params.reply_parameters as Record<string, any> | undefined;
  const replyToId = reply && typeof reply === "object" ? optionalInt(reply, "message_id") : optionalInt(params, "reply_to_message_id");
  const allowWithout =
    reply && typeof reply === "object"
      ? optionalBool(reply, "allow_sending_without_reply")
      : optionalBool(params, "allow_sending_without_reply");
  let replyTo: TgMessage | undefined;
  let quote: Record<string, unknown> | undefined;
  if (replyToId !== undefined) {
    const replyChatId =
      reply && typeof reply === "object" && reply.chat_id !== undefined ? store.resolveChat(reply.chat_id, true).id : chat.id;
    const target = store.liveMessage(replyChatId, replyToId);
    if (target) {
      replyTo = asReplyTarget(target.message);
      const quoteText = reply && typeof reply === "object" ? optionalString(reply, "quote") : undefined;
      if (quoteText !== undefined) {
        const source = target.message.text ?? target.message.caption ?? "";
        const position = source.indexOf(quoteText);
        if (position < 0) throw badRequest("QUOTE_TEXT_INVALID");
        quote = { text: quoteText, position, is_manual: true };
      }
    } else if (!allowWithout) {
      throw badRequest("message to be replied not found");
    }
  }

  const message: TgMessage = {
    message_id: store.takeMessageId(),
    from: { ...store.bot },
    chat: { ...chat },
    date: nowSeconds(),
  };
  if (threadId !== undefined) {
    message.message_thread_id = threadId;
    if (chat.is_forum) message.is_topic_message = true;
  }
  if (replyTo) message.reply_to_message = replyTo;
  if (quote) message.quote = quote;
  if (params.reply_markup !== undefined) message.reply_markup = params.reply_markup;
  return { chat, message };
}

/** Finds a live bot message to edit, with Telegram's errors for the other cases. */
export function editTarget(ctx: MethodContext): StoredMessage {
  const { params, store } = ctx;
  if (params.inline_message_id !== undefined) throw badRequest("MESSAGE_ID_INVALID");
  const chat = store.resolveChat(params.chat_id, true);
  const messageId = optionalInt(params, "message_id");
  if (messageId === undefined) throw badRequest("message identifier is not specified");
  const stored = store.liveMessage(chat.id, messageId);
  if (!stored) throw badRequest("message to edit not found");
  if (!stored.fromBot) throw badRequest("message can't be edited");
  return stored;
}
