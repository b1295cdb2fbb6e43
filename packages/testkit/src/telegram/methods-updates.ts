import { badRequest, FakeTelegramApiError, optionalBool, optionalInt, optionalString } from "./errors.js";
import type { MethodContext, MethodHandler } from "./method-context.js";
import type { TgUpdate } from "./types.js";

/** Update types Telegram leaves out when `allowed_updates` is empty or was never given. */
const OPT_IN_TYPES = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

export const WEBHOOK_CONFLICT =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
export const POLL_CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";

/** The update's type: its one field besides `update_id`. */
export function updateType(update: TgUpdate): string {
  return Object.keys(update).find((k) => k !== "update_id") ?? "";
}

function wanted(update: TgUpdate, allowed: string[] | undefined): boolean {
  const type = updateType(update);
  if (!allowed || allowed.length === 0) return !OPT_IN_TYPES.has(type);
  return allowed.includes(type);
}

/** Waits for the first of: a state change, `ms` passing, or `signal` aborting. */
function nextWake(ctx: MethodContext, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
    void ctx.changed().then(done);
  });
}

/**
 * getUpdates: confirms updates below `offset` (a negative offset keeps only the last -offset),
 * returns up to `limit` (1–100, default 100) wanted updates, and when there are none holds the
 * request up to `timeout` seconds (default 0) until one arrives. A newer getUpdates ends a held
 * one with 409; so does setting a webhook. `allowed_updates`, once given, is remembered.
 */
async function getUpdates(ctx: MethodContext): Promise<TgUpdate[]> {
  const { store, params } = ctx;
  if (store.webhook) throw new FakeTelegramApiError(409, WEBHOOK_CONFLICT);
  const offset = optionalInt(params, "offset");
  const limit = Math.min(100, Math.max(1, optionalInt(params, "limit") ?? 100));
  const timeoutSec = Math.max(0, optionalInt(params, "timeout") ?? 0);
  if (Array.isArray(params.allowed_updates)) store.allowedUpdates = params.allowed_updates.map(String);
  if (offset !== undefined && offset < 0) store.updates = store.updates.slice(offset);
  else if (offset !== undefined) store.confirmBelow(offset);

  store.currentPoll?.abort();
  const mine = new AbortController();
  store.currentPoll = mine;
  ctx.notify();
  const deadline = Date.now() + timeoutSec * 1000;
  const either = AbortSignal.any([mine.signal, ctx.signal]);
  try {
    for (;;) {
      if (mine.signal.aborted) throw new FakeTelegramApiError(409, POLL_CONFLICT);
      if (store.webhook) throw new FakeTelegramApiError(409, WEBHOOK_CONFLICT);
      const batch = store.updates.filter((u) => wanted(u, store.allowedUpdates)).slice(0, limit);
      const remaining = deadline - Date.now();
      if (batch.length > 0 || remaining <= 0 || ctx.signal.aborted || store.closing) return structuredClone(batch);
      await nextWake(ctx, remaining, either);
    }
  } finally {
    if (store.currentPoll === mine) store.currentPoll = undefined;
  }
}

/** setWebhook: an empty url removes the webhook; `secret_token` must be 1–256 of A-Z a-z 0-9 _ -. */
function setWebhook(ctx: MethodContext): true {
  const { store, params } = ctx;
  const url = optionalString(params, "url") ?? "";
  if (url === "") {
    store.webhook = undefined;
    return true;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("bad webhook: invalid webhook URL specified");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
  const secret = optionalString(params, "secret_token");
  if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw badRequest("secret token contains unallowed characters");
  if (optionalBool(params, "drop_pending_updates")) store.updates = [];
  const maxConnections = optionalInt(params, "max_connections");
  store.webhook = {
    url,
    ...(secret !== undefined ? { secretToken: secret } : {}),
    ...(Array.isArray(params.allowed_updates) ? { allowedUpdates: params.allowed_updates.map(String) } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
  };
  ctx.notify();
  return true;
}

/** deleteWebhook: always true; `drop_pending_updates` empties the queue. */
function deleteWebhook(ctx: MethodContext): true {
  ctx.store.webhook = undefined;
  if (optionalBool(ctx.params, "drop_pending_updates")) ctx.store.updates = [];
  return true;
}

function getWebhookInfo(ctx: MethodContext): Record<string, unknown> {
  const hook = ctx.store.webhook;
  const info: Record<string, unknown> = {
    url: hook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: ctx.store.updates.length,
  };
  if (hook?.maxConnections !== undefined) info.max_connections = hook.maxConnections;
  if (hook?.allowedUpdates) info.allowed_updates = hook.allowedUpdates;
  return info;
}

export const updateMethods: Record<string, MethodHandler> = { getUpdates, setWebhook, deleteWebhook, getWebhookInfo };
