// What a bot can do to the chats of the loopback platform: send, edit, delete, typing, files and
// native streams. Each call passes the platform's one seam (`call`): latency, faults, the log.
import { PermanentSendError, type ChatKind } from "@openclaw/plugin-sdk";
import type { Refusal } from "./faults.js";
import type { LoopbackBotApi, LoopbackCallOptions, LoopbackEvent, LoopbackMessage, LoopbackOp, LoopbackStream } from "./types.js";

/** The outcome of a call's effect: a refusal, or the message it touched and the value to return. */
export interface CallEffect<T> {
  refusal?: Refusal;
  messageId?: string;
  value?: T;
}

/** Internal: the parts of the platform the bot API works with. */
export interface BotPlatform {
  textLimit: number;
  editLimit: number;
  byId: Map<string, LoopbackMessage>;
  /** One bot call through the seam; `effect` runs unless a fault refused the call. */
  call<T>(
    op: LoopbackOp,
    botId: string,
    chatId: string,
    details: { messageId?: string; text?: string; options: LoopbackCallOptions | undefined },
    effect: (at: number) => CallEffect<T>,
  ): Promise<T>;
  /** Adds a message to its chat (created on first use). */
  add(chat: { id: string; kind: ChatKind }, message: LoopbackMessage): void;
  nextMessageId(): string;
  /** Counts a typing indication in the chat. */
  typing(chatId: string): void;
  emit(event: LoopbackEvent): void;
}

type Chat = { id: string; kind: ChatKind; threadId?: string };

const refuse = (code: string, message: string): { refusal: Refusal } => ({
  refusal: { error: new PermanentSendError(message, code), code },
});

const checkText = (text: string, limit: number, what: string): { refusal: Refusal } | undefined => {
  if (text.trim() === "") return refuse("empty", `Bad Request: ${what} text is empty`);
  if (text.length > limit) return refuse("too_long", `Bad Request: ${what} is too long (${text.length} characters, the limit is ${limit})`);
  return undefined;
};

/** Internal: the sending API of bot `botId` (everything but `connect`). */
export function botSendingApi(p: BotPlatform, botId: string): Omit<LoopbackBotApi, "botId" | "connect"> {
  const botMessage = (chatId: string, messageId: string): LoopbackMessage | undefined => {
    const message = p.byId.get(messageId);
    if (message === undefined || message.deleted || message.from !== "bot" || message.botId !== botId || message.chatId !== chatId)
      return undefined;
    return message;
  };

  /** A new bot message in `chat`, added and announced (once the call that made it returned). */
  const create = (chat: Chat, text: string, at: number, options: (LoopbackCallOptions & { replyTo?: string }) | undefined) => {
    const message: LoopbackMessage = {
      messageId: p.nextMessageId(),
      chatId: chat.id,
      chatKind: chat.kind,
      from: "bot",
      botId,
      senderId: botId,
      text,
      history: [{ text, at }],
      deleted: false,
      sentAt: at,
      ...(chat.threadId !== undefined ? { threadId: chat.threadId } : {}),
      ...(options?.replyTo !== undefined ? { replyToMessageId: options.replyTo } : {}),
      ...(options?.silent ? { silent: true } : {}),
      ...(options?.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    };
    p.add(chat, message);
    queueMicrotask(() => p.emit({ type: "bot_message", message }));
    return message;
  };

  const missingReplyTarget = (options: { replyTo?: string } | undefined) =>
    options?.replyTo !== undefined && !p.byId.has(options.replyTo)
      ? refuse("not_found", "Bad Request: message to be replied not found")
      : undefined;

  /** Sets a message's text as an edit does. */
  const change = (message: LoopbackMessage, text: string, at: number): void => {
    message.text = text;
    message.history.push({ text, at });
    queueMicrotask(() => p.emit({ type: "edited", message }));
  };

  return {
    sendMessage(chat, text, options) {
      return p.call<{ messageId: string }>("send", botId, chat.id, { text, options }, (at) => {
        const invalid = checkText(text, p.textLimit, "message") ?? missingReplyTarget(options);
        if (invalid !== undefined) return invalid;
        const message = create(chat, text, at, options);
        return { messageId: message.messageId, value: { messageId: message.messageId } };
      });
    },
    editMessage(chatId, messageId, text, options) {
      return p.call<void>("edit", botId, chatId, { messageId, text, options }, (at) => {
        const message = botMessage(chatId, messageId);
        if (message === undefined) return refuse("not_found", `Bad Request: message ${messageId} to edit not found`);
        const invalid = checkText(text, p.editLimit, "edited message");
        if (invalid !== undefined) return invalid;
        change(message, text, at);
        return {};
      });
    },
    deleteMessage(chatId, messageId, options) {
      return p.call<void>("delete", botId, chatId, { messageId, options }, (at) => {
        const message = botMessage(chatId, messageId);
        if (message === undefined) return refuse("not_found", `Bad Request: message ${messageId} to delete not found`);
        message.deleted = true;
        message.deletedAt = at;
        queueMicrotask(() => p.emit({ type: "deleted", message }));
        return {};
      });
    },
    sendTyping(chatId, options) {
      return p.call<void>("typing", botId, chatId, { options }, () => {
        p.typing(chatId);
        return {};
      });
    },
    sendMedia(chat, media, options) {
      const caption = media.caption ?? "";
      return p.call<{ messageId: string }>("media", botId, chat.id, { text: caption, options }, (at) => {
        if (caption.length > p.textLimit) return refuse("too_long", `Bad Request: caption is too long (${caption.length} characters)`);
        if (media.source.trim() === "") return refuse("empty", "Bad Request: the file has no source");
        const invalid = missingReplyTarget(options);
        if (invalid !== undefined) return invalid;
        const message = create(chat, caption, at, options);
        message.media = { kind: media.kind, source: media.source, ...(media.fileName !== undefined ? { fileName: media.fileName } : {}) };
        return { messageId: message.messageId, value: { messageId: message.messageId } };
      });
    },
    openStream(chat, options) {
      const { mode } = options;
      return p.call<LoopbackStream>("stream-open", botId, chat.id, { options }, (at) => {
        const invalid = missingReplyTarget(options);
        if (invalid !== undefined) return invalid;
        // The message shows nothing (and chat views leave it out) until the first text arrives.
        const message = create(chat, "", at, options);
        message.stream = { mode, state: "streaming" };
        const live = (): { refusal: Refusal } | undefined =>
          message.stream?.state === "streaming" && !message.deleted
            ? undefined
            : refuse("stream_closed", `Bad Request: stream ${message.messageId} is ${message.stream?.state ?? "gone"}`);
        const apply = (text: string, streamAt: number, finished: boolean): CallEffect<void> => {
          const next = mode === "replace" ? text : message.text + text;
          const invalid = live() ?? (next.length > p.textLimit ? checkText(next, p.textLimit, "stream") : undefined);
          if (invalid !== undefined) return invalid;
          if (next !== message.text) change(message, next, streamAt);
          if (finished) message.stream = { mode, state: "finished" };
          return { messageId: message.messageId };
        };
        const stream: LoopbackStream = {
          messageId: message.messageId,
          update: (text, callOptions) =>
            p.call<void>("stream-update", botId, chat.id, { messageId: message.messageId, text, options: callOptions }, (streamAt) =>
              apply(text, streamAt, false),
            ),
          finish: (text, callOptions) =>
            p.call<void>("stream-finish", botId, chat.id, { messageId: message.messageId, text, options: callOptions }, (streamAt) =>
              apply(text, streamAt, true),
            ),
          abort: (callOptions) =>
            p.call<void>("stream-abort", botId, chat.id, { messageId: message.messageId, options: callOptions }, () => {
              if (message.stream?.state === "streaming") message.stream = { mode, state: "aborted" };
              return { messageId: message.messageId };
            }),
        };
        return { messageId: message.messageId, value: stream };
      });
    },
  };
}
