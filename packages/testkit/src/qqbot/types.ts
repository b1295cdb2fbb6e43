/**
 * Public types of the fake QQ Bot platform (token endpoint, OpenAPI REST and the WebSocket
 * gateway on one loopback port). Wire objects keep the platform's snake_case field names; the
 * fake's own options and records use camelCase.
 */

/** Options of `startFakeQQBot`; every field has a default. */
export interface FakeQQBotOptions {
  /** The bot's AppID, default "1020304050". */
  appId?: string;
  /** The secret the token endpoint accepts, default "fake-qq-secret". */
  clientSecret?: string;
  /** `expires_in` of issued tokens in seconds, default 7200; a token is refused once it has run out. */
  tokenTtlSeconds?: number;
  /** `heartbeat_interval` sent in Hello, default 41250 (tests use ~200); no heartbeat for 2 intervals closes the socket. */
  heartbeatIntervalMs?: number;
  /** Passive replies allowed per inbound msg_id, default 5. */
  passiveReplyLimit?: number;
}

/** An attachment on an inbound user message, as the platform sends it. */
export interface FakeQQAttachment {
  content_type: string;
  filename?: string;
  url: string;
  size?: number;
}

/** A message the bot sent, as the person on the other side sees it. */
export interface FakeQQMessage {
  /** The platform's id of the sent message. */
  id: string;
  kind: "text" | "markdown" | "media";
  /** Text or markdown content; for media, the text sent with the file ("" when none). */
  content: string;
  /** The msg_id it was a passive reply to (undefined for proactive sends). */
  replyTo?: string;
  msgSeq?: number;
  /** `message_reference.message_id`. */
  quoted?: string;
  media?: { fileType: number; fileName?: string; bytes: number };
}

/** One C2C `stream_messages` session (replace mode: the last chunk holds the whole text). */
export interface FakeQQStream {
  streamMsgId: string;
  msgId: string;
  msgSeq: number;
  chunks: { index: number; state: 1 | 10; contentRaw: string }[];
  /** A chunk with input_state 10 arrived; later chunks are refused. */
  done: boolean;
  /** content_raw of the last chunk. */
  text: string;
}

/** One HTTP request the fake answered (token, REST, files, streams, refused ones included). */
export interface FakeQQCall {
  method: string;
  /** Path with query string, e.g. "/v2/users/OPENID/messages". */
  path: string;
  /** The parsed JSON body (the raw text when it was not JSON; undefined when empty). */
  body: unknown;
  status: number;
  response: unknown;
  /** Date.now() when the answer was sent. */
  at: number;
}

/** Counters and state of the WebSocket gateway. */
export interface FakeQQGatewayState {
  /** Identify frames accepted (each opens a new session). */
  identifies: number;
  /** Resume frames accepted. */
  resumes: number;
  /** WebSocket connections opened on `/websocket`. */
  connections: number;
  /** A socket is open and has an identified or resumed session. */
  readonly connected: boolean;
  /** session_id of the last READY. */
  lastSessionId?: string;
}

/** An injected HTTP failure: the next `count` (default 1) matching requests get `status` and `body`. */
export interface FakeQQFailSpec {
  /** HTTP method to match (any when absent). */
  method?: string;
  /** Substring of the path to match (any when absent). */
  pathIncludes?: string;
  count?: number;
  status: number;
  /** Response body, default `{code: status, message: "injected failure"}`. */
  body?: unknown;
}

/** The running fake; see `startFakeQQBot`. */
export interface FakeQQBot {
  readonly appId: string;
  readonly clientSecret: string;
  /** "http://127.0.0.1:<port>": REST (`GET /gateway`, `/v2/users/{openid}/messages`, ...). */
  readonly apiBase: string;
  /** "http://127.0.0.1:<port>/app/getAppAccessToken". */
  readonly tokenUrl: string;
  /** The bot as READY describes it. */
  readonly bot: { id: string; username: string };

  /** A person sends the bot a private (C2C) message; returns the event's message id. */
  userSendsC2C(msg: { openid: string; content: string; attachments?: FakeQQAttachment[] }): string;
  /** A group member @-mentions the bot (GROUP_AT_MESSAGE_CREATE). */
  userSendsGroupAt(msg: { groupOpenid: string; memberOpenid: string; content: string; attachments?: FakeQQAttachment[] }): string;
  /** A group member writes without mentioning the bot (GROUP_MESSAGE_CREATE). */
  userSendsGroup(msg: { groupOpenid: string; memberOpenid: string; content: string }): string;
  /** A guild member @-mentions the bot in a channel (AT_MESSAGE_CREATE). */
  userSendsGuildAt(msg: { channelId: string; guildId: string; authorId: string; content: string }): string;
  /** A guild member writes the bot a direct message (DIRECT_MESSAGE_CREATE). */
  userSendsDirect(msg: { guildId: string; authorId: string; content: string }): string;

  /** Bot messages (plain, markdown, media; typing excluded) in a C2C chat, in send order. */
  c2cMessages(openid: string): FakeQQMessage[];
  groupMessages(groupOpenid: string): FakeQQMessage[];
  channelMessages(channelId: string): FakeQQMessage[];
  directMessages(guildId: string): FakeQQMessage[];
  /** C2C stream_messages sessions, in the order they started. */
  streams(openid: string): FakeQQStream[];
  /** msg_type 6 input_notify sends to this user. */
  typingNotices(openid: string): number;
  /** Every accepted send that carried this msg_id (typing, text, media; a stream session counts once). */
  passiveRepliesUsed(msgId: string): number;
  readonly calls: FakeQQCall[];
  readonly gateway: FakeQQGatewayState;
  /** Resolves with the predicate's first truthy value, re-checked on every change; rejects after timeoutMs (default 5000). */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;

  /** Destroys the TCP socket without a close frame. */
  /** Dispatches an event exactly as given (op 0, the next `s`), malformed payloads included. */
  dispatchRaw(t: string, d: unknown): void;
  dropSocket(): void;
  /** Sends op 7 (reconnect). */
  sendReconnect(): void;
  /** Sends op 9 with d = resumable; when false the session is forgotten (a later Resume is refused). */
  invalidateSession(resumable: boolean): void;
  /** Closes the socket with a close frame. */
  closeSocket(code: number, reason?: string): void;
  /** Every token issued so far is refused from now on (401 on REST, close 4004 on the socket). */
  expireTokens(): void;
  failNext(spec: FakeQQFailSpec): void;
  close(): Promise<void>;
}
