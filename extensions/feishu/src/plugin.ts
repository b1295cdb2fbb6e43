/**
 * The Feishu / Lark channel plugin: config entry, account resolution, and `connect`, assembled
 * with `defineChannelPlugin`.
 */
import { type ChannelPlugin, defineChannelPlugin, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { type FeishuAccount, listFeishuAccounts, resolveFeishuAccount } from "./account.js";
import type { CardPacing } from "./card-stream.js";
import { feishuChannelConfig, type feishuConfigSchema } from "./config.js";
import type { RecreateBackoff } from "./long-connection.js";
import { connectFeishuAccount, DEFAULT_SESSION_TUNING } from "./session.js";

/** Knobs of the running plugin; production defaults apply to anything unset (tests shorten them). */
export interface FeishuPluginOptions {
  /** Waits before a long-connection client that gave up is made again (default 1 s doubling to 30 s). */
  backoff?: RecreateBackoff;
  /** Pacing of streaming card updates (default ~6 a second at most, sooner at sentence ends). */
  pacing?: CardPacing;
  /** Bytes of text per streaming card before the reply continues in a next card (default 28 KB). */
  cardBytes?: number;
}

/** Builds the Feishu channel plugin; the package's default export is `createFeishuPlugin()`. */
export function createFeishuPlugin(options: FeishuPluginOptions = {}): ChannelPlugin<FeishuAccount, typeof feishuConfigSchema> {
  const tuning = {
    backoff: options.backoff ?? DEFAULT_SESSION_TUNING.backoff,
    ...(options.pacing ? { pacing: options.pacing } : {}),
    ...(options.cardBytes ? { cardBytes: options.cardBytes } : {}),
  };
  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "feishu",
    meta: {
      label: "Feishu / Lark",
      docsPath: "docs/channels/feishu.md",
      blurb: "Feishu and Lark bots (long connection or webhook), replies streamed into CardKit cards.",
    },
    config: feishuChannelConfig,
    listAccounts: listFeishuAccounts,
    resolveAccount: resolveFeishuAccount,
    connect: (ctx) => connectFeishuAccount(ctx, tuning),
  });
}
