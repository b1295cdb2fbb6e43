/**
 * The QQ Bot channel plugin: config entry, account resolution, and `connect`, assembled with
 * `defineChannelPlugin`.
 */
import { type ChannelPlugin, defineChannelPlugin, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { listQQBotAccounts, type QQBotAccount, resolveQQBotAccount } from "./account.js";
import { qqbotChannelConfig, type qqbotConfigSchema } from "./config.js";
import { DEFAULT_GATEWAY_TUNING, type GatewayTuning } from "./gateway.js";
import { connectQQBotAccount, DEFAULT_SESSION_TUNING } from "./session.js";

/** Knobs of the running plugin; production defaults apply to anything unset (tests shorten them). */
export interface QQBotPluginOptions {
  /** Waits between gateway reconnects, the last one repeated (default 1, 2, 5, 10, 30, 60 s). */
  reconnectDelaysMs?: readonly number[];
  /** Wait after the gateway's close code 4008 (rate limited), in ms (default 60 000). */
  rateLimitedWaitMs?: number;
}

/** Builds the QQ Bot channel plugin; the package's default export is `createQQBotPlugin()`. */
export function createQQBotPlugin(options: QQBotPluginOptions = {}): ChannelPlugin<QQBotAccount, typeof qqbotConfigSchema> {
  const gateway: GatewayTuning = {
    reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_GATEWAY_TUNING.reconnectDelaysMs,
    rateLimitedWaitMs: options.rateLimitedWaitMs ?? DEFAULT_GATEWAY_TUNING.rateLimitedWaitMs,
  };
  const tuning = { ...DEFAULT_SESSION_TUNING, gateway };
  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "qqbot",
    meta: {
      label: "QQ Bot",
      docsPath: "docs/channels/qqbot.md",
      blurb: "QQ bots on the official QQ Bot API (C2C, groups, guilds), complete replies within the passive-reply quota.",
    },
    config: qqbotChannelConfig,
    listAccounts: listQQBotAccounts,
    resolveAccount: resolveQQBotAccount,
    connect: (ctx) => connectQQBotAccount(ctx, tuning),
  });
}
