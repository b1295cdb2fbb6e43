import type { ChatKind, SendPriority } from "@openclaw/plugin-sdk";

/** What a bot can do to a chat on the loopback platform ("stream-*": the calls of a native stream). */
export type LoopbackOp =
  | "send"
  | "edit"
  | "delete"
  | "typing"
  | "media"
  | "stream-open"
  | "stream-update"
  | "stream-finish"
  | "stream-abort";

/** A file a bot sent. */
export interface LoopbackMedia {
  kind: "image" | "document" | "audio" | "video";
  /** A local path or URL, as the bot gave it. */
  source: string;
  fileName?: string;
}

/** A native stream's state: text still arriving, finished with the final, or ended without one. */
export type LoopbackStreamState = "streaming" | "finished" | "aborted";

/** One version of a message's text, with the time it appeared (ms since the epoch). */
export interface LoopbackVersion {
  text: string;
  at: number;
}

/** A message in a loopback chat, sent by a user or by a bot (an account). */
export interface LoopbackMessage {
  /** Unique on the platform ("1", "2", …). */
  messageId: string;
  chatId: string;
  chatKind: ChatKind;
  threadId?: string;
  from: "user" | "bot";
  /** The bot (account id) that sent the message, or that a user's message was addressed to. */
  botId: string;
  /** The user id for a user's message; the bot id for a bot's. */
  senderId: string;
  /** The text shown now (the last version). */
  text: string;
  /** Every version of the text, oldest first; `history.length - 1` is the number of edits. */
  history: LoopbackVersion[];
  deleted: boolean;
  deletedAt?: number;
  replyToMessageId?: string;
  /** Sent without a notification. */
  silent?: boolean;
  /** The idempotency key the bot sent it with. */
  idempotencyKey?: string;
  sentAt: number;
  /** The file of a media message (its caption is `text`). */
  media?: LoopbackMedia;
  /** A native stream's message: how updates apply and where the stream is. */
  stream?: { mode: "replace" | "append"; state: LoopbackStreamState };
}

/** A bot message as the user sees it in `chatView`. */
export interface LoopbackViewMessage {
  messageId: string;
  /** The current text. */
  text: string;
  /** How many times it was edited after it was sent. */
  edits: number;
  /** Every text it showed, oldest first. */
  history: string[];
  replyToMessageId?: string;
  threadId?: string;
  media?: LoopbackMedia;
  /** Set for a native stream's message. */
  stream?: LoopbackStreamState;
}

/** A chat as its user sees it. */
export interface LoopbackChatView {
  chatId: string;
  /** The bots' messages still in the chat, in the order they were sent. */
  messages: LoopbackViewMessage[];
  /** `messages[i].text`, for quick assertions. */
  texts: string[];
  /** The bots' messages that were deleted, with the text they last showed. */
  deleted: LoopbackViewMessage[];
  /** What users said in the chat, in order. */
  userMessages: Array<{ messageId: string; senderId: string; text: string }>;
  /** How many "typing…" indications the chat got. */
  typing: number;
}

/** One call a bot made to the platform (successful or refused). */
export interface LoopbackCall {
  op: LoopbackOp;
  botId: string;
  chatId: string;
  /** The message sent, edited or deleted (for a refused send: undefined). */
  messageId?: string;
  text?: string;
  /** The priority the delivery layer gave the call. */
  priority?: SendPriority;
  idempotencyKey?: string;
  /** The user message the call answers (`SendOptions.inReplyTo`). */
  inReplyTo?: string;
  /** When the call reached the platform (after any injected latency), ms since the epoch. */
  at: number;
  ok: boolean;
  /** Why the platform refused it: "rate_limited", "edit_refused", "too_long", "empty", "not_found", "reply_quota", "stream_closed" or "injected". */
  error?: string;
  /** `retry_after` of a rate-limit answer, in ms. */
  retryAfterMs?: number;
}

/** What a user says, injected with `platform.userSays`. */
export interface UserSaysInput {
  /** The chat id. For a DM the convention is the user's id (default: `sender`'s id). */
  chat?: string;
  /** Default "direct". */
  kind?: ChatKind;
  /** The user: an id, or an id with a display name. */
  sender: string | { id: string; name?: string; username?: string; isBot?: boolean };
  text: string;
  /** The user @-mentioned or replied to the bot (matters in groups). Default: true in DMs, false elsewhere. */
  mentionsBot?: boolean;
  /** The chat's title (groups). */
  title?: string;
  threadId?: string;
  /** Reply to this message id. */
  replyTo?: string;
  /** The bot (account id) addressed. Default: the only bot connected, else "default". */
  bot?: string;
}

/** Fault filter for `rateLimit`. */
export interface RateLimitOptions {
  /** Which calls get the 429 (default: send, edit and delete; typing is never counted unless listed). */
  ops?: readonly LoopbackOp[];
  /** Only calls to this chat. */
  chatId?: string;
}

/**
 * A raw update as the platform pushes it to a connected bot (what a webhook body would be). The
 * loopback plugin validates it; anything else is a bad payload it rejects.
 */
export interface LoopbackUpdate {
  updateId: number;
  type: "message";
  message: {
    messageId: string;
    chat: { id: string; kind: ChatKind; title?: string; threadId?: string };
    from: { id: string; name?: string; username?: string; isBot?: boolean };
    text: string;
    mentionsBot: boolean;
    replyTo?: { messageId: string; fromBot: boolean; text?: string };
    /** Milliseconds since the epoch. */
    date: number;
  };
}

/** Receives the raw updates of one bot; a rejection is recorded as a failed delivery. */
export type LoopbackUpdateHandler = (payload: unknown) => Promise<void>;

/** Options of one bot call. */
export interface LoopbackCallOptions {
  priority?: SendPriority;
  idempotencyKey?: string;
  silent?: boolean;
  signal?: AbortSignal;
  /** The user message this call answers. */
  inReplyTo?: string;
}

/**
 * A native stream on the loopback platform. A `replace` stream's message shows the text of the
 * last update; an `append` stream's message grows by each update's text. Calls after `finish` or
 * `abort` are refused ("stream_closed"), and so is text past the platform's `textLimit`.
 */
export interface LoopbackStream {
  readonly messageId: string;
  update(text: string, options?: LoopbackCallOptions): Promise<void>;
  /** Applies the last text (as an update does) and ends the stream. */
  finish(text: string, options?: LoopbackCallOptions): Promise<void>;
  /** Ends the stream without a final; the message keeps what it showed. */
  abort(options?: LoopbackCallOptions): Promise<void>;
}

/** The platform API one bot (account) talks to. Refusals throw the SDK's send errors. */
export interface LoopbackBotApi {
  readonly botId: string;
  /**
   * Starts receiving updates (queued ones first). A second connection of the same bot replaces
   * the first. Returns the function that disconnects.
   */
  connect(handler: LoopbackUpdateHandler): () => void;
  sendMessage(
    chat: { id: string; kind: ChatKind; threadId?: string },
    text: string,
    options?: LoopbackCallOptions & { replyTo?: string },
  ): Promise<{ messageId: string }>;
  editMessage(chatId: string, messageId: string, text: string, options?: LoopbackCallOptions): Promise<void>;
  deleteMessage(chatId: string, messageId: string, options?: LoopbackCallOptions): Promise<void>;
  sendTyping(chatId: string, options?: LoopbackCallOptions): Promise<void>;
  /** Sends a file with an optional caption (at most `textLimit` characters); the message's text is the caption. */
  sendMedia(
    chat: { id: string; kind: ChatKind; threadId?: string },
    media: LoopbackMedia & { caption?: string },
    options?: LoopbackCallOptions & { replyTo?: string },
  ): Promise<{ messageId: string }>;
  /** Opens a native stream: a message that stays out of chat views until its first text. */
  openStream(
    chat: { id: string; kind: ChatKind; threadId?: string },
    options: LoopbackCallOptions & { mode: "replace" | "append"; replyTo?: string },
  ): Promise<LoopbackStream>;
}

/** What changed on the platform (for `subscribe`). */
export type LoopbackEvent =
  | { type: "user_message"; message: LoopbackMessage }
  | { type: "bot_message"; message: LoopbackMessage }
  | { type: "edited"; message: LoopbackMessage }
  | { type: "deleted"; message: LoopbackMessage }
  | { type: "call"; call: LoopbackCall }
  | { type: "connected" | "disconnected"; botId: string };

/** Options of `createLoopbackPlatform`. */
export interface LoopbackPlatformOptions {
  /** Longest message text the platform accepts (default 4000). */
  textLimit?: number;
  /** Longest text an edit may set (default `textLimit`). */
  editLimit?: number;
  /**
   * While a chat is serving a rate-limit penalty (after an injected 429), every other call to it is
   * answered 429 too, with the time left, as real platforms do (default true). A delivery layer
   * that honours `retry_after` never sees those.
   */
  enforceRetryAfter?: boolean;
  /** Clock (default `Date.now`). */
  now?: () => number;
  /**
   * Keep only the newest this-many messages of each chat (default: all). Older ones are forgotten:
   * edits of them fail "not found". For long benchmarks, so the fake does not grow.
   */
  retainMessages?: number;
  /** Keep the log of calls in `calls` (default true; `subscribe` still sees every call). */
  recordCalls?: boolean;
  /**
   * At most `perInbound` calls answering one user message (`inReplyTo`) within `windowMs` of the
   * first: sends, files, typing and stream opens count, edits and deletes do not; the next is
   * refused "reply limit exceeded" (`PermanentSendError`, code "reply_quota"), as QQ Bot refuses
   * a sixth passive reply. Default: no limit.
   */
  replyQuota?: { perInbound: number; windowMs: number };
}

/**
 * An in-memory chat platform for tests and benchmarks: chats whose messages bots send, edit and
 * delete; users who talk to bots; and faults on demand (rate limits, refused edits, latency).
 */
export interface LoopbackPlatform {
  readonly textLimit: number;
  readonly editLimit: number;
  /**
   * A user says something. The update goes to the addressed bot (queued until it connects) and the
   * promise resolves once the bot's handler has taken it (for the gateway: once core recorded it),
   * with the user's message. Rejects when the handler rejects.
   */
  userSays(input: UserSaysInput): Promise<LoopbackMessage>;
  /** Pushes any payload (malformed or unsupported) to a bot, as a broken platform would. Resolves when handled. */
  injectRaw(payload: unknown, options?: { bot?: string }): Promise<void>;
  /** The chat as its user sees it. An unknown chat is empty. */
  chatView(chatId: string): LoopbackChatView;
  /** Every message of a chat (or of every chat), deleted ones included, in order. */
  messages(chatId?: string): LoopbackMessage[];
  /** Every bot call, oldest first. */
  readonly calls: readonly LoopbackCall[];
  /** Payloads whose delivery to a bot failed (the handler rejected), with the error. */
  readonly deliveryErrors: ReadonlyArray<{ botId: string; payload: unknown; error: string }>;
  /** Idempotency keys that were used by more than one successful send (a duplicated message). */
  duplicateSends(): string[];
  /** The next `count` matching calls are answered with a rate limit of `retryAfterMs`. */
  rateLimit(count: number, retryAfterMs: number, options?: RateLimitOptions): void;
  /** The next `count` edits (default: every edit from now on) are refused ("message can't be edited"). */
  failEdits(count?: number): void;
  /** The next call of `op` throws `error` (as is: a TransientSendError, a PermanentSendError, …). */
  failNext(op: LoopbackOp, error: Error | (() => Error)): void;
  /** Every call waits this long before it takes effect (per op or for all; 0 = none). */
  setLatency(ms: number | Partial<Record<LoopbackOp, number>>): void;
  /** Clears every pending fault, penalty and latency. */
  clearFaults(): void;
  /** The API of one bot (account id). */
  bot(botId: string): LoopbackBotApi;
  /** Bots connected now. */
  connectedBots(): string[];
  /** Calls `listener` on every change; returns the function that unsubscribes. */
  subscribe(listener: (event: LoopbackEvent) => void): () => void;
  /**
   * Resolves with `predicate()`'s first truthy value, re-checked on every change; rejects after
   * `timeoutMs` (default 5000) naming `what` and showing the chats.
   */
  waitFor<T>(predicate: () => T | undefined | null | false, options?: { timeoutMs?: number; what?: string }): Promise<T>;
  /** Forgets every chat, call and fault (connections stay). */
  reset(): void;
}
