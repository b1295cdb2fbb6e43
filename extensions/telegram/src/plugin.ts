/**
 * The Telegram channel plugin: capabilities, account resolution, the sending side and the
 * receiving side, assembled with `defineChannelPlugin`.
 */
import { type ChannelPlugin, defineChannelPlugin, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { listTelegramAccounts, resolveTelegramAccount, type TelegramAccount } from "./account.js";
import { telegramChannelConfig, type telegramConfigSchema } from "./config.js";
import { DEFAULT_POLLING_TUNING, type PollingTuning } from "./inbound/polling.js";
import { checkTelegramAccount } from "./check.js";
import { connectTelegramAccount, type StartTuning } from "./start.js";

/** Knobs of the running plugin; production defaults apply to anything unset (tests shorten them). */
export interface TelegramPluginOptions {
  /** Long-poll timeout of getUpdates, in seconds (default 30). */
  pollTimeoutSeconds?: number;
  /** Restart a poll that has not answered for this long, in ms (default pollTimeoutSeconds * 1000 + 30000). */
  pollStallMs?: number;
  /** First delay after a failed poll, doubled per failure up to `pollRetryMaxMs` (default 1000 ms). */
  pollRetryBaseMs?: number;
  /** Longest delay between failed polls (default 30000 ms). */
  pollRetryMaxMs?: number;
  /** Largest webhook body accepted, in bytes (default 1 MiB; larger bodies get 413). */
  webhookMaxBodyBytes?: number;
  /** Longest wait on stop for handed-out updates to be recorded (default 5000 ms). */
  drainMs?: number;
  /** Observes the webhook listener's bound address (tests that use port 0). */
  onWebhookListening?: StartTuning["onWebhookListening"];
}

function tuningOf(options: TelegramPluginOptions): StartTuning {
  const timeoutSeconds = options.pollTimeoutSeconds ?? DEFAULT_POLLING_TUNING.timeoutSeconds;
  const polling: PollingTuning = {
    timeoutSeconds,
    stallMs: options.pollStallMs ?? timeoutSeconds * 1000 + 30_000,
    retryBaseMs: options.pollRetryBaseMs ?? DEFAULT_POLLING_TUNING.retryBaseMs,
    retryMaxMs: options.pollRetryMaxMs ?? DEFAULT_POLLING_TUNING.retryMaxMs,
  };
  return {
    polling,
    drainMs: options.drainMs ?? 5000,
    ...(options.webhookMaxBodyBytes !== undefined ? { webhookMaxBodyBytes: options.webhookMaxBodyBytes } : {}),
    ...(options.onWebhookListening ? { onWebhookListening: options.onWebhookListening } : {}),
  };
}

/** Builds the Telegram channel plugin; the package's default export is `createTelegramPlugin()`. */
export function createTelegramPlugin(options: TelegramPluginOptions = {}): ChannelPlugin<TelegramAccount, typeof telegramConfigSchema> {
  const tuning = tuningOf(options);
  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "telegram",
    meta: {
      label: "Telegram",
      docsPath: "docs/channels/telegram.md",
      blurb: "Telegram bots over the Bot API (long polling or webhook), with live previews edited in place.",
    },
    config: telegramChannelConfig,
    listAccounts: listTelegramAccounts,
    resolveAccount: resolveTelegramAccount,
    connect: (ctx) => connectTelegramAccount(ctx, tuning),
    checkAccount: checkTelegramAccount,
  });
}
