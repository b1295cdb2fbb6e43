/** Options of `startFakeFeishu`. Every field has a default. */
export interface FakeFeishuOptions {
  /** Default: "cli_a1b2c3d4e5f60718" (the SDK's WSClient refuses ids not shaped `cli_` + 16 hex digits). */
  appId?: string;
  /** Default: "fake-feishu-secret". */
  appSecret?: string;
  /** The bot's open_id, answered by `GET /open-apis/bot/v3/info`. Default: "ou_fakebot0000000000000000000000". */
  botOpenId?: string;
  /** Default: "FakeFeishuBot". */
  botName?: string;
  /** Time source for tokens, message times and card history. Default: `Date.now`. */
  clock?: () => number;
  /** tenant_access_token lifetime in seconds. Default: 7200. */
  tokenTtlSeconds?: number;
  /**
   * The ClientConfig the long-connection bootstrap and every pong hand the WSClient (seconds).
   * Defaults suit tests: ping every 120 s, reconnect forever (-1), 0.1 s between attempts, no jitter.
   */
  clientConfig?: Partial<FakeFeishuClientConfig>;
  /** Event payloads larger than this many bytes go out in several frames (`sum`/`seq`). Default: 65536. */
  maxFramePayloadBytes?: number;
  /** `header.token` of pushed events (the app's verification token). Default: "". */
  verificationToken?: string;
}

/** What the bootstrap returns as `ClientConfig` and each pong carries. */
export interface FakeFeishuClientConfig {
  pingIntervalSeconds: number;
  /** -1: retry forever. */
  reconnectCount: number;
  reconnectIntervalSeconds: number;
  reconnectNonceSeconds: number;
}

/** A user's message, as `userSends` and `eventFor` take it. */
export interface FakeFeishuUserMessage {
  /** Default for p2p: the user's DM chat, `dmChatId(openId)`. Required for groups (else `userSends` throws). */
  chatId?: string;
  /** Default: "p2p". */
  chatType?: "p2p" | "group";
  openId: string;
  text?: string;
  /** A `post` (rich text) body, sent as-is as the content. */
  post?: unknown;
  image?: { bytes: Uint8Array; name?: string };
  file?: { bytes: Uint8Array; name: string };
  /** Mentioned users; `@_user_<n>` placeholders are put in front of `text` unless it has them. */
  mentions?: Array<{ openId: string; name: string }>;
  threadId?: string;
  rootId?: string;
  parentId?: string;
  /** Default: a fresh id. */
  eventId?: string;
  /** Default: a fresh "om_" id. */
  messageId?: string;
}

/** A message in a chat, as the fake keeps it. */
export interface FakeFeishuMessage {
  messageId: string;
  chatId: string;
  /** "bot" for the app's messages, the user's open_id otherwise. */
  senderId: string;
  msgType: string;
  /** The parsed `content` JSON. For `interactive` with a card entity: `{type: "card", data: {card_id}}`. */
  content: unknown;
  rootId?: string;
  parentId?: string;
  threadId?: string;
  deleted: boolean;
  /** How many times the content changed after sending (PATCH/PUT). */
  updates: number;
  createdAt: number;
}

/** A CardKit card entity. */
export interface FakeFeishuCard {
  cardId: string;
  /** The last accepted `sequence` (0 before any update). */
  sequence: number;
  streaming: boolean;
  summary?: string;
  /** element_id -> text content of every element that has one (markdown, plain_text). */
  elements: Record<string, string>;
  /** Every element content change, in order. */
  history: Array<{ at: number; elementId: string; content: string; sequence: number }>;
  /** The card JSON as it stands now. */
  card: Record<string, unknown>;
}

export interface FakeFeishuReaction {
  reactionId: string;
  emojiType: string;
  removed: boolean;
}

export interface FakeFeishuUpload {
  kind: "image" | "file";
  key: string;
  bytes: Uint8Array;
  /** file_name / file_type for files, image_type for images. */
  fields: Record<string, string>;
}

/** An ack frame the WSClient sent back for an event. */
export interface FakeFeishuAck {
  eventId: string;
  /** The frame's `message_id` header (one per delivery). */
  frameMessageId: string;
  /** 200 when the handler returned, 500 when it threw. */
  code: number;
  at: number;
}

/** One HTTP request the fake answered. */
export interface FakeFeishuCall {
  method: string;
  /** Path with query string. */
  path: string;
  body: unknown;
  status: number;
  code: number | undefined;
  at: number;
}

/** Options of `failNext`. */
export interface FakeFeishuFailResponse {
  code: number;
  msg?: string;
  /** Default: 429 for 99991400, else 400. */
  httpStatus?: number;
}

/** The webhook keys an app configures in the developer console. */
export interface FakeFeishuWebhookKeys {
  encryptKey: string;
  verificationToken: string;
}

/** The fake Feishu Open Platform; see `startFakeFeishu`. */
export interface FakeFeishu {
  /** "http://127.0.0.1:<port>": pass as the SDK's `domain`. */
  baseUrl: string;
  appId: string;
  appSecret: string;
  botOpenId: string;
  botName: string;

  /**
   * Delivers an `im.message.receive_v1` event over the long connection (to the newest ready one, as
   * the platform picks one client per event). With no connection ready the event waits and goes
   * out when the next one is. Resolves once the frames are written (or the event is queued).
   */
  userSends(msg: FakeFeishuUserMessage): Promise<{ eventId: string; messageId: string }>;
  /** Sends the same event (same event_id) again, as Feishu does when it redelivers. */
  redeliver(eventId: string): Promise<void>;
  /** Sends any event body (schema 2.0 envelope, e.g. from `wrapEvent`) over the long connection. */
  pushEvent(event: object): Promise<void>;
  /** A schema 2.0 envelope (`{schema, header: {event_id, event_type, ...}, event}`) around any event, e.g. `im.message.reaction.created_v1`. */
  wrapEvent(eventType: string, event: object): object;
  /**
   * POSTs an event to a webhook URL as the platform does: body `{"encrypt": base64(iv + AES-256-CBC)}`
   * with key sha256(encryptKey), headers X-Lark-Request-Timestamp, X-Lark-Request-Nonce and
   * X-Lark-Signature = sha256 hex of timestamp + nonce + encryptKey + raw body.
   * `badSignature` sends a wrong signature.
   */
  pushWebhook(url: string, event: object, keys: FakeFeishuWebhookKeys, opts?: { badSignature?: boolean }): Promise<Response>;
  /**
   * POSTs the encrypted `url_verification` check (`{challenge, token, type}`) the developer console sends
   * when a request URL is saved. Like the platform, it carries NO X-Lark-Signature / timestamp / nonce
   * headers. Resolves with the response and the challenge the receiver must echo as `{"challenge"}`.
   */
  pushUrlVerification(url: string, keys: FakeFeishuWebhookKeys): Promise<{ response: Response; challenge: string }>;
  /** The event body `userSends` would deliver, without sending it (records the message in the chat). */
  eventFor(msg: FakeFeishuUserMessage): object;

  /** Every message in a chat (user and bot), in order, deleted ones included. */
  messages(chatId: string): FakeFeishuMessage[];
  /** One message by id. */
  message(messageId: string): FakeFeishuMessage | undefined;
  /** What the chat shows of the bot's messages: text, post and card markdown of undeleted messages, joined by "\n". */
  visibleText(chatId: string): string;
  cards(): FakeFeishuCard[];
  reactions(messageId: string): FakeFeishuReaction[];
  uploads(): FakeFeishuUpload[];
  /** Acks the WSClient sent, in order. */
  acks(): FakeFeishuAck[];
  /** Every HTTP request answered, in order. */
  calls: FakeFeishuCall[];
  /** Resolves with the predicate's first truthy value (re-checked on every request, frame and ack). Default timeout 5000 ms. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;

  /** The next `times` (default 1) requests whose path (with query) matches answer with this error. */
  failNext(path: RegExp, response: FakeFeishuFailResponse, times?: number): void;
  /** Closes every long connection abruptly (TCP reset, no close frame). */
  dropConnections(): void;
  /**
   * The next `times` bootstrap POSTs fail with `code`: default 1000040343, which the SDK retries; any
   * other code (e.g. 514, auth failed) makes the WSClient give up and call its `onError`.
   */
  refuseConnections(times: number, code?: number): void;
  /** Open long connections that are ready for events (the client has sent its first ping). */
  connections(): number;
  /** Long connections opened so far. */
  connectionsOpened(): number;
  /** Every token issued so far stops working (99991663). */
  expireTokens(): void;
  close(): Promise<void>;
}
