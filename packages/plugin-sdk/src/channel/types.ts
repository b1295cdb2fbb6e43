import type { z } from "zod";
import type { ChannelConfigDefinition } from "../config/channel-definition.js";

/** The kinds of conversation a platform has. */
export type ChatKind = "direct" | "group" | "channel";

/** A conversation on the platform: a DM, a group or a broadcast channel, optionally a thread in it. */
export interface ChatRef {
  kind: ChatKind;
  /** The platform's chat id, as a string (numbers are stringified). */
  id: string;
  /** A thread, forum topic or reply chain inside the chat. */
  threadId?: string;
  /**
   * What the thread is, for its session key: `"thread"` (default) adds `:thread:<id>`, `"topic"`
   * (a forum topic, which may name its own agent in `groups.<chat>.topics`) adds `:topic:<id>`.
   */
  threadKind?: "thread" | "topic";
  /**
   * Other names of this chat that config may key it by (e.g. the `#alias:server` names a Matrix
   * room was found under): `groups.<key>` lookups try `id` first, then these, in order. A plugin
   * sets it on inbound messages when the platform has such names; absent: `id` only.
   */
  aliases?: readonly string[];
}

/** Who sent an inbound message. */
export interface Sender {
  /** The platform's stable user id (what `allowFrom` lists). */
  id: string;
  name?: string;
  username?: string;
  isBot?: boolean;
}

/** A file that came with an inbound message. */
export interface InboundMedia {
  kind: "image" | "audio" | "video" | "document" | "sticker" | "voice";
  /** Platform file id, fetchable through the plugin. */
  fileId?: string;
  url?: string;
  mimeType?: string;
  fileName?: string;
  size?: number;
}

/** A message from the platform, normalized. Plugins build these; core routes them. */
export interface InboundMessage {
  /** The channel id (`"telegram"`). */
  channel: string;
  accountId: string;
  /** The platform's id of this message (used for replies and deduplication). */
  messageId: string;
  chat: ChatRef & { title?: string };
  sender: Sender;
  /** Text or caption; `""` for media without a caption. */
  text: string;
  media?: InboundMedia[];
  /** True when the bot was mentioned, replied to, or addressed by command (matters in groups). */
  mentionsBot: boolean;
  replyTo?: { messageId: string; fromBot: boolean; text?: string };
  /** Milliseconds since the epoch. */
  receivedAt: number;
}

/** Where a reply goes. */
export interface OutboundTarget {
  chat: ChatRef;
  /** Quote this message (per `replyToMode`). */
  replyToMessageId?: string;
}

/** Why a send happens; the send budget uses it to decide what may wait or be dropped. */
export type SendPriority = "final" | "block" | "preview" | "typing";

/** Options every outbound call receives. */
export interface SendOptions {
  /** Fires when the run is aborted or the gateway stops; stop retrying then. */
  signal: AbortSignal;
  priority: SendPriority;
  /** `"markdown"`: the text is Markdown for the plugin to render; `"plain"`: send as is. */
  format: "markdown" | "plain";
  /** Stable per logical message across retries and restarts; platforms that support it dedupe with it. */
  idempotencyKey: string;
  /** Deliver without a notification (previews that will be edited). */
  silent?: boolean;
  /**
   * The id of the inbound message this call answers (`InboundMessage.messageId`), on every call a
   * reply makes: previews, typing, blocks, finals, streams. Undefined for messages nobody asked for
   * (a message sent by a tool to another chat). Platforms that meter replies per inbound message
   * (QQ Bot's passive replies) send with it; it does not quote anything (that is
   * `OutboundTarget.replyToMessageId`, governed by `replyToMode`).
   */
  inReplyTo?: string;
}

/** A message the platform accepted. */
export interface SentMessage {
  /**
   * The message's id. For a send made as several messages, the primary one: the last part of a
   * split text, the file of a file whose caption followed apart.
   */
  messageId: string;
  /**
   * Every message the send made, in order, when the plugin split it into several (text over the
   * platform's limit once rendered, a caption sent apart from its file). Omit it for one message.
   * `SplitSendTracker` fills it in.
   */
  messageIds?: string[];
}

/** An outgoing file. */
export interface OutboundMedia {
  kind: "image" | "document" | "audio" | "video";
  /** A local file path or an http(s) URL. */
  source: string;
  fileName?: string;
  caption?: string;
}

/**
 * A platform-native stream (Feishu CardKit card, QQ `stream_messages`). `replace` streams take
 * the whole text so far on every update; `append` streams take only the new text.
 */
export interface NativeStream {
  /** Called as text grows (paced by core). */
  update(text: string): Promise<void>;
  /** Completes the stream with the final text; returns the message that holds it. */
  finish(finalText: string): Promise<SentMessage>;
  /** Ends the stream without a final (the run failed or was aborted). */
  abort(reason: string): Promise<void>;
}

/**
 * What an account can send. Only `sendText` is required; every optional method makes delivery
 * better (edit -> live previews; openStream -> native streaming). Throw `RateLimitedError` for a
 * platform rate limit and `PermanentSendError` for a send that must not be retried.
 */
export interface ChannelOutbound {
  /** Sends one message of at most `capabilities.textLimit` characters. */
  sendText(target: OutboundTarget, text: string, options: SendOptions): Promise<SentMessage>;
  /** Replaces the text of a message this account sent (at most `capabilities.editLimit`). */
  editText?(target: OutboundTarget, messageId: string, text: string, options: SendOptions): Promise<void>;
  /** Deletes a message this account sent. */
  deleteMessage?(target: OutboundTarget, messageId: string, options: SendOptions): Promise<void>;
  /** Sends a file. */
  sendMedia?(target: OutboundTarget, media: OutboundMedia, options: SendOptions): Promise<SentMessage>;
  /**
   * Shows "typing…" for a few seconds (core renews it while the reply is written). With
   * `capabilities.typingPersists` the indicator stays until `clearTyping`: core calls `typing` once
   * per reply and never renews it.
   */
  typing?(target: OutboundTarget, options: SendOptions): Promise<void>;
  /**
   * Removes a lasting typing indicator (`capabilities.typingPersists`, e.g. Feishu's "Typing"
   * reaction on the user's message) once the reply is done, delivered or not. `options.inReplyTo`
   * names the message the indicator was put on. Called at most once per `typing` that succeeded.
   */
  clearTyping?(target: OutboundTarget, options: SendOptions): Promise<void>;
  /** Opens a native stream, or returns null when this target cannot stream (core falls back). */
  openStream?(target: OutboundTarget, options: SendOptions): Promise<NativeStream | null>;
}

/** What the platform can do; data, so config validation can warn before anything runs. */
export interface ChannelCapabilities {
  chatTypes: readonly ChatKind[];
  /** Can edit sent messages (needed for live previews). */
  edit: boolean;
  delete: boolean;
  media: boolean;
  reactions: boolean;
  threads: boolean;
  typing: boolean;
  /** Longest message the platform accepts (the default `textChunkLimit`). */
  textLimit: number;
  /** Longest text an edited message may hold; default `textLimit`. */
  editLimit?: number;
  /** Shortest pause between two edits of one message, in ms; default 1000. */
  minEditIntervalMs?: number;
  /**
   * The typing indicator stays until removed (a reaction, not a few seconds of "typing…"): core
   * calls `typing` once per reply, never renews it (each call may notify the user), and calls
   * `clearTyping` when the reply is done. Default false.
   */
  typingPersists?: boolean;
  /** The platform streams natively (see `ChannelOutbound.openStream`). */
  nativeStream?: "replace" | "append";
  /**
   * Longest text one native stream may hold, in characters; default `textLimit` (the account's
   * `textChunkLimit`), past which the reply continues as ordinary messages. `Infinity` for a
   * stream that continues into further messages itself (Feishu opens a next card near its 30 KB
   * size limit) and reports them all in `finish`'s `SentMessage.messageIds`.
   */
  nativeStreamLimit?: number;
  /**
   * A preview looks different from a final message (Matrix: the MSC4357 live marker, a quiet
   * `m.notice`), so every message shown as a preview ends with an edit of priority `"final"`,
   * even when its text already is the final text. Default false: such a message is left as the
   * preview showed it (no edit that changes nothing).
   */
  finalEditAfterPreview?: boolean;
  /**
   * Send quotas of the platform (sends, edits and deletes per second), which the account's send
   * budget paces every delivery by. Defaults: 1 per second per chat in bursts of 3, and 30 per
   * second per account; `Infinity` means no limit (a local test channel).
   */
  sendRate?: { perChat?: number; perChatBurst?: number; global?: number; globalBurst?: number };
  /**
   * The platform allows at most `perInbound` replies to one inbound message within `windowMs` of
   * the first (QQ Bot: 5 passive replies per user message). Every call that makes a message or an
   * indicator in the chat with `SendOptions.inReplyTo` spends one: a send, a file, typing, the open
   * of a native stream; edits, deletes and stream updates do not. The send budget keeps the final's
   * share before blocks, previews and typing spend the rest. Default: no such quota.
   */
  replyQuota?: { perInbound: number; windowMs: number };
}

/**
 * Account state shown by `openclaw channels status`.
 *
 * `"needs-login"`: the account has no login state (never linked, or unlinked from the phone) and
 * waits for `openclaw channels login <channel>`; core shows that command. A plugin reports it
 * from `connect` and keeps its session idle, best watching `credentialsDir` to connect once the
 * login is made (the CLI runs apart from the gateway); or it lets `closed` reject with
 * `AccountConfigError`, and the account connects at the gateway's next start.
 */
export interface AccountStatus {
  state: "starting" | "connected" | "reconnecting" | "stopped" | "error" | "needs-login";
  /** What is wrong, and how to fix it, when state is "error", "reconnecting" or "needs-login". */
  detail?: string;
  /** The bot's own identity once known, e.g. "@my_bot". */
  identity?: string;
  /**
   * Facts about the connection that `openclaw channels status` shows one per line as
   * `key: value` (and `--json` as an object), e.g. Matrix's `{ device: "ABCDEFGHIJ",
   * encryption: "on", verified: "yes" }`. An update replaces the whole map; `{}` clears it.
   */
  details?: Record<string, string>;
  lastInboundAt?: number;
  lastOutboundAt?: number;
}

/** Logging handed to a plugin; lines are prefixed with the channel and account. */
export interface PluginLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Everything `connect` gets for one account. */
export interface AccountContext<Account> {
  accountId: string;
  /** The account's effective config, from `resolveAccount`. */
  account: Account;
  /**
   * Fires when the account must stop: the gateway is shutting down, after the replies in flight
   * were sent (the gateway reads its config once, at start). The session then closes its
   * connections and settles `closed`.
   */
  signal: AbortSignal;
  /**
   * Hands an inbound message to core. Resolves once core has written it to its inbox on disk
   * (before the agent answers), so the plugin may acknowledge the platform (advance an offset,
   * a sync token, an ack) after awaiting it, and not before. Never throws for a message core
   * refuses (access policy); it logs and drops it. Rejects only when core cannot record it (the
   * gateway is stopping): do not acknowledge then; the platform will deliver it again.
   */
  receive(message: InboundMessage): Promise<void>;
  /** Reports connection state for `openclaw channels status`. */
  status(update: Partial<AccountStatus>): void;
  log: PluginLogger;
  /** A folder for this account's login state (`<stateDir>/credentials/<channel>/<account>`), created on demand. */
  credentialsDir: string;
  /** A small key-value store in the gateway's state database (update offsets, cursors). */
  cursor: { get(key: string): string | undefined; set(key: string, value: string): void };
  /**
   * HTTP routes on the gateway's own listener (the port of the control API), for platforms that
   * push events by webhook. Undefined when the host serves no HTTP (a test harness): a plugin
   * that needs it rejects `connect` with an `AccountConfigError` then.
   */
  http?: PluginHttpRoutes;
}

/** An HTTP request the gateway received on a plugin's route; the body is read whole, within its limit. */
export interface PluginHttpRequest {
  method: string;
  /** The path with the query, as requested (e.g. `/feishu/events?x=1`). */
  url: string;
  /** Request headers, names lower-case (repeated headers joined with ", "). */
  headers: Readonly<Record<string, string>>;
  /** The raw body bytes, unparsed (verify signatures over these). */
  body: Uint8Array;
  /** The peer's address (the proxy's, behind a reverse proxy). */
  remoteAddress: string;
}

/** What a route handler answers. A string body is sent as UTF-8; `content-type` defaults to JSON. */
export interface PluginHttpResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Handles one request on a plugin's route; a throw is answered 500 and logged, never crashes the gateway. */
export type PluginHttpHandler = (request: PluginHttpRequest) => Promise<PluginHttpResponse>;

/** Registers HTTP routes on the gateway's listener (see `AccountContext.http`). */
export interface PluginHttpRoutes {
  /**
   * Serves `path` (exact match, any method; the query is ignored for matching) with `handler`
   * until the returned function is called or the account stops. A body over `maxBodyBytes`
   * (default 1 MiB) is answered 413 without calling the handler.
   * @throws AccountConfigError when another account or plugin already serves `path`, or it is
   *   one of the gateway's own paths (`/`, `/ws`, `/health`).
   */
  route(path: string, handler: PluginHttpHandler, options?: { maxBodyBytes?: number }): () => void;
}

/**
 * One connected account: the one object that both sends (the `ChannelOutbound` methods) and
 * receives (it calls `ctx.receive` for each inbound message) over one platform connection (one
 * bot client, one Matrix client with its crypto store, one socket across reconnects).
 */
export interface AccountSession extends ChannelOutbound {
  /**
   * Settles when the session has stopped: resolves after `ctx.signal` fired and the connection is
   * closed; rejects when the connection failed for good (core then connects again with backoff,
   * unless the error is an `AccountConfigError`, which needs the config to change first).
   */
  readonly closed: Promise<void>;
  /** What this account can do in one chat, when it differs from the channel's capabilities (QQ C2C vs group). */
  capabilitiesFor?(chat: ChatRef): Partial<ChannelCapabilities>;
  /**
   * The effective `streaming` config of replies in one chat, when it differs from the account's
   * (a per-room override, e.g. Matrix's `streaming.rooms.<roomId>`). Core's delivery planner reads
   * the returned object whole instead of the account's merged `streaming` (`mode`, `block`,
   * `preview`, `progress`, `chunkMode`), so a plugin returns the account's object with the chat's
   * keys laid over it. Undefined (or no method): the account's `streaming` applies. Called once
   * per reply, before it starts; it should answer from memory.
   */
  streamingFor?(chat: ChatRef): StreamingConfig | undefined;
}

/**
 * A channel's `streaming` object as configured (nested form), which the delivery planner reads:
 * `mode` (one of the channel's preview modes or `"off"`), `chunkMode`, `block`, `preview`,
 * `progress`, and any key the channel's schema adds (a native-stream flag).
 */
export interface StreamingConfig {
  /** `"off"` or one of the channel's `delivery.previewModes`; unset: the channel's `defaultMode`. */
  mode?: string;
  /** How long replies are split: `"length"` (default) or also at blank lines (`"newline"`). */
  chunkMode?: "length" | "newline";
  /** Block replies (`enabled`) and how blocks are merged before they leave (`coalesce`). */
  block?: { enabled?: boolean; coalesce?: { minChars?: number; maxChars?: number; idleMs?: number } };
  /** Options of the live preview: its rotation bounds, and whether running tools show under it. */
  preview?: { chunk?: { minChars?: number; maxChars?: number }; toolProgress?: boolean };
  /** Options of the `progress` mode's status draft (`label`, `labels`, `maxLines`, ...). */
  progress?: Record<string, unknown>;
  /** Keys the channel's schema adds (e.g. a native-stream flag). */
  [key: string]: unknown;
}

/**
 * Everything `login` and `logout` get for one account, when the user runs
 * `openclaw channels login|logout <channel> [--account <id>]` (the CLI, not the gateway).
 */
export interface ChannelLoginContext<Account> {
  accountId: string;
  /** The account's effective config (resolveAccount's result). */
  account: Account;
  /**
   * The account's login-state folder, `<stateDir>/credentials/<channel>/<accountId>` (the same
   * as `AccountContext.credentialsDir`), created with mode 0700 before the call.
   */
  credentialsDir: string;
  log: PluginLogger;
  /**
   * Fires when the user gives up (Ctrl-C) or the host's timeout passes. `login` then stops
   * waiting, closes its connection and rejects (any error; the host reports the abort itself).
   */
  signal: AbortSignal;
  /**
   * How the user asked to link: a QR code to scan (default), or a pairing code for this phone
   * number (`--pairing-code <E.164>`, e.g. "+15551234567"). Throw `AccountConfigError` when the
   * platform has no pairing codes.
   */
  method: { kind: "qr" } | { kind: "pairing-code"; phoneNumber: string };
  /** Shows a QR code to scan: the host renders `data` in the terminal; call it again each time it rotates. */
  showQr(data: string): void;
  /** Shows the code to type on the phone (pairing-code method). */
  showPairingCode(code: string): void;
}

/** What a successful `login` returns. */
export interface ChannelLoginResult {
  /** Who is linked now, for the host's message `Linked as <identity>.`, e.g. "+15551234567". */
  identity: string;
}

/** Per-channel defaults a plugin supplies. */
export interface ChannelMeta {
  /** Human name, e.g. "Telegram". */
  label: string;
  /** Path of the channel's guide under docs/, e.g. "docs/channels/telegram.md". */
  docsPath: string;
  /** One sentence for `openclaw plugins list`. */
  blurb: string;
}

/** The contract version this SDK describes; a plugin names the one it implements. */
export const SPECIFICATION_VERSION = 2;

/** The validated config of one account: the channel's schema output without `accounts`/`defaultAccount`. */
export type AccountConfigOf<S extends z.ZodType> = Omit<z.output<S>, "accounts" | "defaultAccount">;

/** What `resolveAccount` receives. */
export interface ResolveAccountInput<S extends z.ZodType> {
  accountId: string;
  /**
   * The account's config, validated against the plugin's schema and merged (the channel root
   * overlaid by `accounts.<id>`, the account winning key by key, `streaming` merged deeply).
   */
  config: AccountConfigOf<S>;
  /** The whole validated `channels.<id>` object, for rules that must tell root keys from account keys (credentials). */
  channel: z.output<S>;
  env: NodeJS.ProcessEnv;
}

/**
 * A channel plugin (contract version 2): a small required part and optional powers.
 *
 * Everything core must know before any plugin code runs (schema, doctor rules, capabilities,
 * delivery policy, id rules) is in `config`, the light config entry. Core calls, in order:
 * `listAccounts` (which accounts exist), `resolveAccount` (per enabled account, with its validated
 * config), then `connect` (the session; connected again with backoff when `closed` rejects).
 */
export interface ChannelPlugin<Account = unknown, S extends z.ZodType = z.ZodType> {
  /** The contract version the plugin implements (`SPECIFICATION_VERSION`). */
  specificationVersion: typeof SPECIFICATION_VERSION;
  /** The key under `channels` and in bindings; equal to `config.id`. */
  id: string;
  meta: ChannelMeta;
  /** The light config entry: schema, doctor rules, capabilities, delivery policy, id rules. */
  config: ChannelConfigDefinition<S>;
  /** Account ids configured under `channels.<id>` (`"default"` for the root when it has credentials). */
  listAccounts(channelConfig: Record<string, unknown>, env: NodeJS.ProcessEnv): string[];
  /**
   * The runtime settings of one account from its validated config. Throw `AccountConfigError`
   * naming the key and the fix when the account cannot run (e.g. no token).
   */
  resolveAccount(input: ResolveAccountInput<S>): Account;
  /**
   * Connects one account and returns its session once it can send (receiving may go on in the
   * background). Reject with `AccountConfigError` when the platform refuses the credentials;
   * with any other error when it cannot be reached (core retries with backoff).
   */
  connect(ctx: AccountContext<Account>): Promise<AccountSession>;
  /**
   * Links one account interactively (`openclaw channels login <channel>`): for platforms that
   * authenticate by scanning a QR code or typing a pairing code instead of a token in the config.
   * Saves the login state under `ctx.credentialsDir`, where `connect` finds it, and resolves once
   * linked. Rejects when `ctx.signal` fires or linking fails. It runs in the CLI process, apart
   * from a running gateway: a session in "needs-login" should watch the folder and connect once
   * the login is made. Omit it for channels configured by token alone.
   */
  login?(ctx: ChannelLoginContext<Account>): Promise<ChannelLoginResult>;
  /**
   * Checks one account's credentials with a single cheap call to the platform (e.g. asking who the
   * bot is) and resolves with the identity it answers as, e.g. "@my_bot". `openclaw onboard` calls
   * it before it saves the config. Reject with `AccountConfigError` when the platform refuses the
   * credentials (the message says what to fix), with any other error when it cannot be reached.
   * Omit it when there is nothing cheap to ask.
   */
  checkAccount?(account: Account, options: { signal: AbortSignal }): Promise<{ identity: string }>;
  /**
   * Unlinks one account (`openclaw channels logout <channel>`): tells the platform when it can,
   * and removes the login state under `ctx.credentialsDir` (the host removes nothing itself).
   * Resolves also when the account was not linked.
   */
  logout?(ctx: ChannelLoginContext<Account>): Promise<void>;
}
