// The loopback channel plugin: a ChannelPlugin written with @openclaw/plugin-sdk alone, whose
// accounts are bots on a LoopbackPlatform. Tests, the conformance suite and benchmarks use it.
import {
  type AccountSession,
  type ChannelCapabilities,
  type ChannelOutbound,
  type ChannelPlugin,
  type ChatRef,
  defineChannelPlugin,
  listAccountIds,
  SPECIFICATION_VERSION,
  type OutboundTarget,
  type SendOptions,
  type StreamingConfig,
} from "@openclaw/plugin-sdk";
import { LOOPBACK_CAPABILITIES, loopbackChannelConfig } from "./config.js";
import { parseUpdate } from "./inbound.js";
import type { LoopbackCallOptions, LoopbackPlatform } from "./types.js";

/** One loopback account: a bot on the platform named by the account id. */
export interface LoopbackAccount {
  accountId: string;
  /** The bot id on the platform (the account id). */
  botId: string;
  /** The account's validated, merged `channels.<id>` config (root overlaid by `accounts.<id>`). */
  config: Record<string, unknown>;
}

/** Options of `createLoopbackPlugin`. */
export interface LoopbackPluginOptions {
  /** The channel id, the key under `channels` (default "loopback"). */
  id?: string;
  /**
   * Overrides of the declared capabilities. Defaults: every chat type, edit, delete, threads and
   * typing on, media and reactions off, no native stream, `textLimit`/`editLimit` from the
   * platform, `minEditIntervalMs` 250, and no send quota (`sendRate` Infinity). `edit: false`,
   * `delete: false` or `typing: false` also remove the matching outbound method, so core has to
   * fall back as it would for a platform that cannot do it; `media: true` adds `sendMedia`, and
   * `nativeStream: "replace"` or `"append"` adds `openStream` with those semantics.
   */
  capabilities?: Partial<ChannelCapabilities>;
  /**
   * The sessions' per-chat streaming config (`AccountSession.streamingFor`), as a plugin with
   * per-room overrides gives it. Absent: every chat uses the account's `streaming`.
   */
  streamingFor?(chat: ChatRef, account: LoopbackAccount): StreamingConfig | undefined;
}

/**
 * A loopback channel plugin on `platform`. Accounts: every key of `channels.<id>.accounts`, or the
 * root as `"default"` when there are none. `connect` connects the account's bot, reports it
 * `connected` as `@<account>`, and returns the session: it sends through the bot and turns every
 * raw update into an `InboundMessage` (a malformed one is logged and dropped; the account keeps
 * running) until the signal fires, then disconnects.
 */
export function createLoopbackPlugin(platform: LoopbackPlatform, options: LoopbackPluginOptions = {}): ChannelPlugin<LoopbackAccount> {
  const id = options.id ?? "loopback";
  const capabilities: ChannelCapabilities = {
    ...LOOPBACK_CAPABILITIES,
    textLimit: platform.textLimit,
    editLimit: platform.editLimit,
    ...options.capabilities,
  };
  const config = loopbackChannelConfig(id, capabilities);

  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id,
    meta: {
      label: "Loopback",
      docsPath: "docs/writing-a-channel-plugin.md",
      blurb: "An in-memory test channel (tests and benchmarks only).",
    },
    config,
    listAccounts: (channelConfig) => listAccountIds(channelConfig, false),
    resolveAccount: ({ accountId, config: accountConfig }) => ({ accountId, botId: accountId, config: accountConfig }),
    async connect(ctx): Promise<AccountSession> {
      const bot = platform.bot(ctx.account.botId);
      const disconnect = bot.connect(async (payload) => {
        const parsed = parseUpdate(payload, id, ctx.accountId);
        if (parsed.kind === "rejected") {
          ctx.log.warn(`rejected a malformed update: ${parsed.reason}`);
          return;
        }
        if (parsed.kind === "ignored") {
          ctx.log.debug(`ignored an update of type ${parsed.type}`);
          return;
        }
        await ctx.receive(parsed.message);
      });
      ctx.status({ state: "connected", identity: `@${ctx.account.botId}` });
      const closed = new Promise<void>((resolve) => {
        const close = () => {
          disconnect();
          resolve();
        };
        if (ctx.signal.aborted) close();
        else ctx.signal.addEventListener("abort", close, { once: true });
      });
      const streamingFor = options.streamingFor;
      return {
        ...createLoopbackOutbound(platform, ctx.account.botId, capabilities),
        closed,
        ...(streamingFor ? { streamingFor: (chat: ChatRef) => streamingFor(chat, ctx.account) } : {}),
      };
    },
  });
}

/**
 * The sending side of a loopback bot with the given capabilities (what a loopback session sends
 * with): `edit`, `delete`, `typing`, `media` and `nativeStream` add the matching methods.
 */
export function createLoopbackOutbound(platform: LoopbackPlatform, botId: string, capabilities: ChannelCapabilities): ChannelOutbound {
  const bot = platform.bot(botId);
  /** What every call passes on to the platform. */
  const call = (o: SendOptions): LoopbackCallOptions => ({
    priority: o.priority,
    idempotencyKey: o.idempotencyKey,
    signal: o.signal,
    ...(o.inReplyTo !== undefined ? { inReplyTo: o.inReplyTo } : {}),
  });
  const reply = (target: OutboundTarget) => (target.replyToMessageId !== undefined ? { replyTo: target.replyToMessageId } : {});
  const outbound: ChannelOutbound = {
    sendText: (target, text, o) =>
      bot.sendMessage(target.chat, text, { ...call(o), ...(o.silent ? { silent: true } : {}), ...reply(target) }),
  };
  if (capabilities.edit) {
    outbound.editText = (target, messageId, text, o) => bot.editMessage(target.chat.id, messageId, text, call(o));
  }
  if (capabilities.delete) {
    outbound.deleteMessage = (target, messageId, o) => bot.deleteMessage(target.chat.id, messageId, call(o));
  }
  if (capabilities.typing) {
    outbound.typing = (target, o) => bot.sendTyping(target.chat.id, call(o));
  }
  if (capabilities.media) {
    outbound.sendMedia = (target, media, o) => bot.sendMedia(target.chat, media, { ...call(o), ...reply(target) });
  }
  const mode = capabilities.nativeStream;
  if (mode !== undefined) {
    outbound.openStream = async (target, o) => {
      const stream = await bot.openStream(target.chat, { ...call(o), mode, ...reply(target) });
      // Stream calls after the open carry its inbound message (they answer the same one).
      const later = o.inReplyTo !== undefined ? { inReplyTo: o.inReplyTo } : {};
      return {
        update: (text) => stream.update(text, { priority: "preview", ...later }),
        finish: async (text) => {
          await stream.finish(text, { priority: "final", ...later });
          return { messageId: stream.messageId };
        },
        abort: () => stream.abort(later),
      };
    };
  }
  return outbound;
}
