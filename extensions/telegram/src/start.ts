/**
 * Connects one Telegram account as a session: `getMe`, then long polling or the webhook listener
 * in the background, handing each normalized message to core in per-chat (per-topic) order, and
 * the sending side on the same bot token.
 */
import type { AccountContext, AccountSession } from "@openclaw/plugin-sdk";
import { Bot, GrammyError } from "./grammy.js";
import type { Update } from "grammy/types";
import { accountKeyPath, type TelegramAccount } from "./account.js";
import { createTelegramOutbound } from "./outbound.js";
import { grammySignal, normalizeApiRoot } from "./api.js";
import { KeyedLanes } from "./inbound/lanes.js";
import { normalizeUpdate, sequenceKey } from "./inbound/normalize.js";
import { runPolling, tokenRejectedError, type PollingTuning } from "./inbound/polling.js";
import { runWebhook, type WebhookDeps } from "./inbound/webhook.js";

/** Tuning of a running account (production defaults; tests shorten them). */
export interface StartTuning {
  polling: PollingTuning;
  /** Largest webhook body in bytes (default 1 MiB). */
  webhookMaxBodyBytes?: number;
  /** Longest wait, on stop, for updates already handed out to finish (default 5000 ms). */
  drainMs: number;
  /** Observes the webhook listener's address (tests). */
  onWebhookListening?: WebhookDeps["onListening"];
}

/**
 * Connects the account: `getMe` (reports `connected` with the bot's `@username`), then returns the
 * session, which receives until `ctx.signal` fires. Rejects with `AccountConfigError` when
 * Telegram refuses the token, and with an ordinary error (core retries with backoff) when
 * Telegram cannot be reached; the session's `closed` rejects the same way on a polling conflict.
 */
export async function connectTelegramAccount(ctx: AccountContext<TelegramAccount>, tuning: StartTuning): Promise<AccountSession> {
  const { account, log, signal } = ctx;
  const tokenPath = accountKeyPath(ctx.accountId, account.tokenSource === "tokenFile" ? "tokenFile" : "botToken");
  const apiRoot = normalizeApiRoot(account.apiRoot);
  const bot = new Bot(account.token, {
    // grammY's own request timeout stays above the stall watchdog, which handles silent polls.
    client: { ...(apiRoot ? { apiRoot } : {}), timeoutSeconds: Math.ceil(tuning.polling.stallMs / 1000) + 15 },
  });
  ctx.status({ state: "starting" });
  try {
    await bot.init(grammySignal(signal));
  } catch (error) {
    if (signal.aborted) throw new Error("stopped before Telegram answered getMe");
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) throw tokenRejectedError(tokenPath);
    throw new Error(`Telegram getMe failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const me = { id: bot.botInfo.id, username: bot.botInfo.username };
  ctx.status({ state: "connected", identity: `@${me.username}` });
  log.info(`connected as @${me.username} (${account.webhook ? "webhook" : "long polling"})`);

  const lanes = new KeyedLanes((key, error) => log.error(`handling an update of ${key} failed: ${String(error)}`));
  const dispatch = (update: Update): Promise<void> => {
    let key: string;
    try {
      key = sequenceKey(update);
    } catch (error) {
      log.warn(`ignored a malformed update: ${String(error)}`);
      return Promise.resolve();
    }
    let refused: unknown;
    return lanes
      .run(key, async () => {
        const message = normalizeUpdate(update, ctx.accountId, me);
        if (!message) return;
        try {
          await ctx.receive(message);
        } catch (error) {
          refused = error;
        }
      })
      .then(() => {
        if (refused !== undefined) throw refused;
      });
  };

  const receiving = async (): Promise<void> => {
    try {
      if (account.webhook) {
        await runWebhook({
          api: bot.api,
          settings: account.webhook,
          signal,
          log,
          status: ctx.status,
          dispatch,
          tokenPath,
          ...(tuning.webhookMaxBodyBytes !== undefined ? { maxBodyBytes: tuning.webhookMaxBodyBytes } : {}),
          ...(tuning.onWebhookListening ? { onListening: tuning.onWebhookListening } : {}),
        });
      } else {
        await runPolling({
          api: bot.api,
          signal,
          log,
          status: ctx.status,
          cursor: ctx.cursor,
          dispatch,
          tokenPath,
          tuning: tuning.polling,
        });
      }
    } finally {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([lanes.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, tuning.drainMs)))]);
      clearTimeout(timer);
    }
  };
  const outbound = createTelegramOutbound(account, { log, signal });
  return { ...outbound, closed: receiving() };
}
