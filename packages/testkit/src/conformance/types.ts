import type { ChannelPlugin, ChatKind } from "@openclaw/plugin-sdk";

/** A bot message as a user sees it. */
export interface ConformanceViewMessage {
  messageId: string;
  /** The text shown now. */
  text: string;
  /** How many times the message was edited after it was sent. */
  edits: number;
}

/** A chat as its user sees it: the bot's messages still there, and the ones it deleted. */
export interface ConformanceChatView {
  /** The bot's messages in the chat, in the order they were sent (user messages excluded). */
  messages: ConformanceViewMessage[];
  /** The bot's messages that were deleted. */
  deleted: Array<{ messageId: string; text?: string }>;
}

/** What a user says, as `ConformancePlatform.userSays` receives it. */
export interface ConformanceUserMessage {
  /** A user id the suite makes up (a new one per case: "conf-user-3"). Map it to a platform user. */
  senderId: string;
  senderName?: string;
  text: string;
  /** Default "direct". For "group", the harness picks (or creates) a group the bot is in. */
  kind?: Extract<ChatKind, "direct" | "group">;
  /** For groups: the bot was @-mentioned (the suite always mentions it). */
  mentionsBot?: boolean;
}

/**
 * The channel's fake platform, as the suite drives it. Every method acts on the real fake (a
 * fake server speaking the platform's wire protocol), never on the plugin directly.
 */
export interface ConformancePlatform {
  /**
   * A user sends a message to the bot. Resolve once the platform has it; the suite then waits for
   * the plugin to hand it to `receive`. For a DM the chat is the user's private chat.
   */
  userSays(message: ConformanceUserMessage): Promise<void>;
  /** The chat (by the platform chat id the plugin reported in `InboundMessage.chat.id`) as its user sees it. */
  chatView(chatId: string): ConformanceChatView | Promise<ConformanceChatView>;
  /**
   * The platform answers its next `count` send, edit or delete calls with "429 Too Many Requests"
   * and a retry-after of `retryAfterMs` (round up to the platform's unit, e.g. whole seconds).
   */
  inject429(count: number, retryAfterMs: number): void | Promise<void>;
  /**
   * Makes the platform deliver malformed or unsupported inbound data to the bot (as many kinds as it
   * can: a broken JSON body, an update with missing fields, an update type the plugin does not
   * handle). Resolve once the plugin has had the chance to see it.
   */
  injectBadPayload(): Promise<void>;
  /** Stops the fake platform (called once, after the account stopped). */
  close(): Promise<void>;
}

/** What a channel's own test supplies to the suite. */
export interface ConformanceHarness<Account = unknown> {
  /** The plugin under test, exactly as its package exports it. */
  plugin: ChannelPlugin<Account>;
  /** The `channels.<id>` config to run it with (credentials pointing at the fake platform). */
  accountConfig: Record<string, unknown>;
  /** The account to run (default: the first id `plugin.listAccounts(accountConfig)` returns). */
  accountId?: string;
  /** Environment handed to `listAccounts` and `resolveAccount` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * A `channels.<id>` config the account cannot run with (e.g. without its token): when given,
   * `resolveAccount` must throw `AccountConfigError` whose path and message name `channels.<id>`.
   */
  brokenAccountConfig?: Record<string, unknown>;
  platform: ConformancePlatform;
}

/** The ids of the conformance cases, for `skip`. */
export type ConformanceCaseId =
  | "contract-shape"
  | "inbound-to-reply"
  | "inbound-in-order"
  | "preview-finalized-in-place"
  | "long-reply-chunked"
  | "rollover-without-repeats"
  | "exactly-one-final"
  | "rate-limit-honoured"
  | "abort-stops-stream"
  | "bad-inbound-rejected"
  | "edits-paced"
  | "native-stream"
  | "native-stream-aborted"
  | "media-sent"
  | "typing-shown";

/** Describes a conformance run for one channel. */
export interface ChannelConformanceSpec<Account = unknown> {
  /** Shown in the test names, e.g. "telegram". */
  name: string;
  /** Builds the plugin, its config and the fake platform; called once per run (before the cases). */
  createHarness(): ConformanceHarness<Account> | Promise<ConformanceHarness<Account>>;
  /** Cases to skip, by id, with the reason shown in the test name (e.g. the platform cannot send bad payloads). */
  skip?: Partial<Record<ConformanceCaseId, string>>;
  /** Longest wait for anything the platform or the plugin should do, in ms (default 15 000). */
  timeoutMs?: number;
}
