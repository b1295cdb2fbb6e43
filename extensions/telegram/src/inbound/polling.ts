/**
 * Long polling: `deleteWebhook`, then `getUpdates` in a loop with the offset resumed from the
 * account's cursor. A 409 (another poller, or a webhook set elsewhere) ends the loop with a
 * reported error instead of fighting the other instance; a poll that stops answering is
 * abandoned and restarted by a watchdog; other failures back off and retry.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AccountConfigError, type AccountContext, type AccountStatus, type PluginLogger } from "@openclaw/plugin-sdk";
import { GrammyError, type Api } from "../grammy.js";
import type { Update } from "grammy/types";
import { grammySignal } from "../api.js";
import { UpdateWatermark } from "./watermark.js";

/** The cursor key holding the next update id to fetch. */
export const OFFSET_CURSOR_KEY = "telegram.updateOffset";

/** Update types the account asks Telegram for. */
export const ALLOWED_UPDATES = ["message", "channel_post"] as const;

/** Tuning of the polling loop; every field has a production default. */
export interface PollingTuning {
  /** Long-poll timeout passed to getUpdates, in seconds (default 30). */
  timeoutSeconds: number;
  /** A getUpdates call unanswered for this long is abandoned and retried (default timeout + 30 s). */
  stallMs: number;
  /** First delay after a failed poll, doubled per failure (default 1000 ms). */
  retryBaseMs: number;
  /** Longest delay between failed polls (default 30000 ms). */
  retryMaxMs: number;
}

export const DEFAULT_POLLING_TUNING: PollingTuning = {
  timeoutSeconds: 30,
  stallMs: 60_000,
  retryBaseMs: 1000,
  retryMaxMs: 30_000,
};

/** Thrown when Telegram answers getUpdates with 409: something else receives this bot's updates. */
export class PollingConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PollingConflictError";
  }
}

/** What the polling loop needs from its account. */
export interface PollingDeps {
  /** The bot's API (no error mapping: the loop reads grammY's errors itself). */
  api: Api;
  signal: AbortSignal;
  log: PluginLogger;
  status(update: Partial<AccountStatus>): void;
  cursor: AccountContext<unknown>["cursor"];
  /** Hands an update to its lane; resolves when it has been handled. */
  dispatch(update: Update): Promise<void>;
  /** Config path of the token, for error messages. */
  tokenPath: string;
  tuning: PollingTuning;
}

function conflictDetail(error: GrammyError): string {
  if (/webhook/i.test(error.description)) {
    return "Telegram refused long polling because a webhook is set for this bot by something else (409 Conflict). Remove the other webhook (or configure webhookUrl here to use webhook mode); the account retries with backoff.";
  }
  return "another process is polling this bot token (Telegram answered 409 Conflict: only one poller per token). Stop the other instance, or give this account its own bot token; the account retries with backoff.";
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // Aborted: the caller checks the signal.
  }
}

function isTokenRejected(error: unknown): error is GrammyError {
  return error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
}

/**
 * Runs long polling until `signal` fires (resolves) or Telegram reports a conflict or a rejected
 * token (rejects). Each batch is handed to core (the lanes keep per-chat order) and the next poll
 * waits until core has recorded it, so its offset confirms to Telegram only what is on disk; an
 * update core refused stays unconfirmed and is fetched again (after a pause). The watermark of
 * handled updates is persisted under {@link OFFSET_CURSOR_KEY}.
 */
export async function runPolling(deps: PollingDeps): Promise<void> {
  const { api, signal, log, tuning } = deps;
  try {
    await api.deleteWebhook({}, grammySignal(signal));
  } catch (error) {
    if (signal.aborted) return;
    if (isTokenRejected(error)) throw tokenRejectedError(deps.tokenPath);
    log.warn(`deleteWebhook failed before polling; polling anyway: ${String(error)}`);
  }

  const saved = Number(deps.cursor.get(OFFSET_CURSOR_KEY) ?? "0");
  const watermark = new UpdateWatermark(Number.isSafeInteger(saved) && saved > 0 ? saved : 0, (next) =>
    deps.cursor.set(OFFSET_CURSOR_KEY, String(next)),
  );
  // Ids at or above the watermark that core already took (getUpdates from the watermark returns
  // them again while an older one is still unconfirmed).
  const taken = new Set<number>();
  let failures = 0;
  let refusals = 0;

  while (!signal.aborted) {
    // The offset confirms every update below it to Telegram: only what core has recorded.
    const offset = watermark.next;
    for (const id of taken) if (id < offset) taken.delete(id);
    const call = new AbortController();
    let stalled = false;
    const watchdog = setTimeout(() => {
      stalled = true;
      call.abort();
    }, tuning.stallMs);
    let updates: Update[];
    try {
      updates = await api.getUpdates(
        { ...(offset > 0 ? { offset } : {}), timeout: tuning.timeoutSeconds, allowed_updates: [...ALLOWED_UPDATES] },
        grammySignal(AbortSignal.any([signal, call.signal])),
      );
    } catch (error) {
      if (signal.aborted) break;
      if (stalled) {
        log.warn(`getUpdates did not answer within ${Math.round(tuning.stallMs / 1000)}s; restarting the poll`);
        continue;
      }
      if (error instanceof GrammyError && error.error_code === 409) {
        const detail = conflictDetail(error);
        deps.status({ state: "error", detail });
        log.error(`polling stopped: ${detail}`);
        throw new PollingConflictError(`Telegram polling conflict: ${detail}`);
      }
      if (isTokenRejected(error)) throw tokenRejectedError(deps.tokenPath);
      failures += 1;
      const delay = Math.min(tuning.retryMaxMs, tuning.retryBaseMs * 2 ** Math.min(failures - 1, 16));
      const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
      const detail = `getUpdates failed (${error instanceof Error ? error.message : String(error)}); retrying in ${jittered} ms`;
      deps.status({ state: "reconnecting", detail });
      log.warn(detail);
      await pause(jittered, signal);
      continue;
    } finally {
      clearTimeout(watchdog);
    }
    if (failures > 0) {
      failures = 0;
      deps.status({ state: "connected" });
    }
    // Each batch is handed to core (per-chat order kept by the lanes) and recorded before the next
    // poll confirms it. An update core did not take stays unconfirmed and comes back.
    const batch: Promise<boolean>[] = [];
    for (const update of updates) {
      const id = update.update_id;
      if (id < offset || taken.has(id)) continue;
      taken.add(id);
      watermark.begin(id);
      batch.push(
        deps.dispatch(update).then(
          () => {
            watermark.finish(id);
            return true;
          },
          (error: unknown) => {
            taken.delete(id);
            log.warn(`update ${id} was not taken (${String(error)}); it is fetched again`);
            return false;
          },
        ),
      );
    }
    const outcomes = await Promise.all(batch);
    if (outcomes.includes(false)) {
      refusals += 1;
      await pause(Math.min(tuning.retryMaxMs, tuning.retryBaseMs * 2 ** Math.min(refusals - 1, 16)), signal);
    } else refusals = 0;
  }
}

/** The error for a token Telegram refuses; names the config path and where to get a token. */
export function tokenRejectedError(path: string): AccountConfigError {
  return new AccountConfigError(
    `Telegram rejected the bot token (401 Unauthorized): check ${path}; get a valid token from @BotFather (/mybots -> API Token).`,
    path,
  );
}
