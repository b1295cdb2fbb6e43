/**
 * Public types of the fake Telegram Bot API server. Telegram objects keep the Bot API's own
 * snake_case field names so that tests read like the Bot API documentation; the fake's own
 * options and records use camelCase.
 */

/** A Telegram user (Bot API `User`). */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  [key: string]: unknown;
}

/** A Telegram chat (Bot API `Chat`). */
export interface TgChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  username?: string;
  first_name?: string;
  is_forum?: boolean;
  [key: string]: unknown;
}

/** A Bot API `MessageEntity`; offsets and lengths are in UTF-16 code units. */
export interface TgMessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
  [key: string]: unknown;
}

/** A Bot API `PhotoSize`. */
export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

/** A Bot API `Message` (only the fields this fake fills are typed). */
export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  message_thread_id?: number;
  is_topic_message?: boolean;
  reply_to_message?: TgMessage;
  text?: string;
  entities?: TgMessageEntity[];
  caption?: string;
  caption_entities?: TgMessageEntity[];
  photo?: TgPhotoSize[];
  document?: { file_id: string; file_unique_id: string; file_name?: string; mime_type?: string; file_size?: number };
  edit_date?: number;
  media_group_id?: string;
  link_preview_options?: Record<string, unknown>;
  reply_markup?: unknown;
  [key: string]: unknown;
}

/** A Bot API `Update`: `update_id` plus exactly one payload field (`message`, `callback_query`, …). */
export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  [key: string]: unknown;
}

/** A Bot API error body. */
export interface TgErrorBody {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** A Bot API response body. */
export type TgResponse = { ok: true; result: unknown } | TgErrorBody;

/** A file the user attaches to a simulated message. */
export interface FakeUserFile {
  /** The file's bytes (a string is encoded as UTF-8). */
  data: Uint8Array | string;
  /** Default: "photo.jpg" for photos, "file.bin" for documents. */
  fileName?: string;
  /** Default: "image/jpeg" for photos, "application/octet-stream" for documents. */
  mimeType?: string;
  /** Photos only. Default 800. */
  width?: number;
  /** Photos only. Default 600. */
  height?: number;
}

/** What a user sends in a chat; see `FakeTelegram.sendUserMessage`. */
export interface FakeUserMessage {
  chat: { id: number; type: "private" | "group" | "supergroup"; title?: string; username?: string; is_forum?: boolean };
  from: { id: number; username?: string; first_name: string; last_name?: string; language_code?: string };
  /** Message text; becomes the caption when a photo or document is attached. */
  text?: string;
  /** Default: built from the text (`@username` mentions, `/commands`, `http(s)://` URLs). Pass `[]` for none. */
  entities?: TgMessageEntity[];
  /** A forum topic or reply thread; in a forum chat the message is marked `is_topic_message`. */
  message_thread_id?: number;
  /** The message replied to: a message id known to the fake (bot's or user's) or a full message object. */
  reply_to_message?: number | TgMessage;
  /** Attaches a photo; the bot can fetch it with `getFile` and the file download URL. */
  photo?: FakeUserFile;
  /** Attaches a document; the bot can fetch it with `getFile` and the file download URL. */
  document?: FakeUserFile;
  /** Unix seconds. Default: now. */
  date?: number;
}

/** One uploaded file part of a multipart call. */
export interface FakeUploadInfo {
  /** The API parameter the file belongs to (e.g. "photo"), or the attach:// name for media groups. */
  field: string;
  fileName: string;
  mimeType: string;
  size: number;
}

/** One Bot API call the fake received. */
export interface FakeTelegramCall {
  /** Position in `calls` (0-based, since the last `reset()`). */
  index: number;
  /** The Bot API method, in its canonical spelling when known (e.g. "sendMessage"). */
  method: string;
  /**
   * The parameters: JSON bodies as parsed; query, urlencoded and multipart fields as strings
   * except values that look like JSON objects or arrays, which are parsed. An uploaded file
   * appears as its {@link FakeUploadInfo} in place of the `attach://` reference or the file part.
   */
  params: Record<string, any>;
  /** Files uploaded with this call (multipart only). */
  uploads: FakeUploadInfo[];
  /** Milliseconds since the epoch when the request arrived. */
  time: number;
  /** How the call came in: an HTTP request, or a method in a webhook response body. */
  via: "http" | "webhook_reply";
  /** True or false once answered; undefined while pending or when no answer was sent. */
  ok?: boolean;
  /** The body sent back (undefined while pending, when dropped, or when the client left first). */
  response?: TgResponse;
  /** The HTTP status sent back, if any. */
  httpStatus?: number;
  /**
   * "pending" while being answered (e.g. a held long poll); "answered" once a response was sent;
   * "dropped" when the fake cut the connection (`dropConnections`); "client_closed" when the client
   * went away first.
   */
  outcome: "pending" | "answered" | "dropped" | "client_closed";
}

/** One version of a bot message: the original send, then each edit. */
export interface FakeMessageVersion {
  /** The visible text (caption for media) after entity parsing. */
  text: string;
  entities: TgMessageEntity[];
  /** The text exactly as the bot sent it, markup included. */
  rawText: string;
  parseMode?: string;
  /** The method that produced this version ("sendMessage", "editMessageText", "sendPhoto", …). */
  method: string;
  /** Milliseconds since the epoch. */
  time: number;
}

/** Telegram-like flood control; see {@link FakeTelegramOptions.enforceRateLimit}. */
export interface FakeRateLimit {
  /** Sustained sends per chat per second. Default 1. */
  perChatPerSecond?: number;
  /** Sends a chat may make at once before the limit applies. Default 3. */
  burst?: number;
}

export interface FakeTelegramOptions {
  /** The only bot token accepted; others get 401 Unauthorized. Default "123456:TEST". */
  token?: string;
  /** The bot's identity for `getMe` and the `from` of its messages. Default: id from the token, username "fake_test_bot", first_name "Fake Bot". */
  botUser?: { id: number; username: string; first_name: string };
  /**
   * Answers 429 with `retry_after` when a chat receives sends/edits faster than allowed
   * (token bucket per chat over send*, edit*, copyMessage and forwardMessage; not
   * sendChatAction). Default: off.
   */
  enforceRateLimit?: FakeRateLimit | false;
  /** When true, sends to a chat the fake has never seen answer 400 "chat not found". Default false: such chats are created as private chats. */
  rejectUnknownChats?: boolean;
}

/** A custom method handler installed with `FakeTelegram.handle`. Return the `result`, or throw `fakeTelegramError(...)`. */
export type FakeMethodHandler = (params: Record<string, any>, call: FakeTelegramCall) => unknown | Promise<unknown>;

/** A running fake Telegram Bot API server on 127.0.0.1. */
export interface FakeTelegram {
  /** `http://127.0.0.1:<port>`: the value for grammY's `client.apiRoot`. */
  readonly apiRoot: string;
  readonly port: number;
  readonly token: string;
  /** The bot as a `User` (id, is_bot, first_name, username): the `from` of its messages; `getMe` adds the capability flags. */
  readonly botUser: TgUser;
  /** Every API call since the last `reset()`, oldest first (including rejected and dropped ones). */
  readonly calls: readonly FakeTelegramCall[];
  /** The registered webhook URL ("" when none). */
  readonly webhookUrl: string;
  /** True while a getUpdates request is being served or held (the bot is long polling right now). */
  readonly isPolling: boolean;
  /** Updates not yet confirmed by a `getUpdates` offset (nor delivered to the webhook). */
  pendingUpdates(): TgUpdate[];

  /** A user sends a message: assigns `update_id` and `message_id`, builds entities when not given, queues the update and returns it. */
  sendUserMessage(message: FakeUserMessage): TgUpdate;
  /** Queues any update (a callback_query, message_reaction, …); `update_id` is assigned. Returns it. */
  enqueueUpdate(update: Omit<TgUpdate, "update_id">): TgUpdate;
  /**
   * POSTs `update` to the registered webhook with the `X-Telegram-Bot-Api-Secret-Token` header
   * (when a secret is set) and returns the HTTP status. A 2xx answer confirms the update (it
   * leaves the pending queue); a JSON answer naming a `method` is executed as a webhook reply.
   * Throws when no webhook is set. Network errors resolve to status 0.
   */
  postUpdateToWebhook(update: TgUpdate, options?: { timeoutMs?: number }): Promise<number>;

  /** The next `count` calls (of `method`, or of any method when omitted) answer 429 with `parameters.retry_after`. */
  inject429(spec: { method?: string; count: number; retryAfter: number }): void;
  /** The next `count` calls of `method` (any method when omitted) answer with this error. */
  injectError(spec: {
    method?: string;
    count: number;
    error_code: number;
    description: string;
    parameters?: TgErrorBody["parameters"];
  }): void;
  /**
   * The next `count` calls (of `method`, or any) lose their connection: the socket is destroyed
   * without a response. With `applyFirst`, the call takes effect first (the message is sent,
   * the edit applied) and only the answer is lost. Default: it has no effect.
   */
  dropConnections(spec: { method?: string; count: number; applyFirst?: boolean }): void;
  /** Delays every answer by `ms` (before the call takes effect). Default 0. */
  setLatency(ms: number): void;
  /** Turns flood control on (with these limits) or off (`false`). */
  setRateLimit(limit: FakeRateLimit | false): void;
  /** Installs or replaces the handler of a method (case-insensitive), e.g. one the fake does not know. */
  handle(method: string, handler: FakeMethodHandler): void;

  /** The chat as its user sees it: the bot's messages there, current content, deleted ones removed, oldest first. */
  chat(chatId: number | string): TgMessage[];
  /** Every message the bot sent in any chat, current content, oldest first; deleted ones included (see `wasDeleted`). */
  sentMessages(): TgMessage[];
  /** The versions of a bot message: the original send first, then each edit. Empty for an unknown id. Message ids are unique across chats in this fake. */
  editsOf(messageId: number): FakeMessageVersion[];
  /** True when the message (bot's or user's) was deleted with `deleteMessage`. */
  wasDeleted(messageId: number): boolean;
  /** Resolves with the predicate's first truthy value, re-checked after every call and simulated event. Rejects after `timeoutMs` (default 5000). */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /**
   * Resolves with the first finished call (answered, dropped or abandoned by the client) of
   * `method` (case-insensitive) that satisfies `predicate`, looking at past calls too (use
   * `call.index` to skip older ones). A held long poll is not finished: to wait until the bot
   * polls, use `waitFor(() => fake.isPolling)`. Rejects after `timeoutMs` (default 5000).
   */
  waitForCall(method: string, predicate?: (call: FakeTelegramCall) => boolean, timeoutMs?: number): Promise<FakeTelegramCall>;
  /**
   * Forgets calls, chats, messages, files, queued updates, the webhook, commands, faults, latency,
   * custom handlers and rate-limit state. Keeps the port, token and options. Update and message
   * ids keep counting up, so a running poller's offset stays valid.
   */
  reset(): void;
  /** Answers held long polls with an empty list, drops connections and stops listening. Safe to call twice. */
  close(): Promise<void>;
}
