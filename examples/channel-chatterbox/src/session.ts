// src/session.ts: one connected account. The session sends through the API and receives by long
// polling `GET /updates`, handing each message to the gateway before acknowledging it.
import { setTimeout as sleep } from "node:timers/promises";
import {
  AccountConfigError,
  type AccountContext,
  type AccountSession,
  type ChannelOutbound,
  PermanentSendError,
} from "@openclaw/plugin-sdk";
import { type ChatterboxAccount, callChatterbox } from "./api.js";
import { parseUpdate, toInbound } from "./inbound.js";

/** How long Chatterbox holds a `GET /updates` open when there is nothing new, in seconds. */
const POLL_WAIT_SECONDS = 25;
/** The cursor key of the last update handed to the gateway (kept across restarts). */
const CURSOR_KEY = "after";

/** Chatterbox refused the token (401/403): only a config change helps, so the gateway must not retry. */
function tokenRefused(error: unknown, account: ChatterboxAccount): AccountConfigError | undefined {
  if (!(error instanceof PermanentSendError) || (error.code !== "401" && error.code !== "403")) return undefined;
  return new AccountConfigError(
    `Chatterbox refused the token in ${account.tokenPath} (${error.code}): copy a current bot token from the Chatterbox console into ${account.tokenPath}.`,
    account.tokenPath,
  );
}

/** The sending side: every call passes `options.signal`, so a stopped run cancels its request. */
function chatterboxOutbound(account: ChatterboxAccount): ChannelOutbound {
  return {
    async sendText(target, text, options) {
      const body = {
        chat: target.chat.id,
        text,
        format: options.format,
        replyTo: target.replyToMessageId,
        silent: options.silent ?? false,
        idempotencyKey: options.idempotencyKey,
      };
      const sent = await callChatterbox<{ id: string }>(account, "POST", "/messages", { signal: options.signal, body });
      return { messageId: sent.id };
    },
    async editText(_target, messageId, text, options) {
      const body = { text, format: options.format };
      await callChatterbox(account, "PATCH", `/messages/${encodeURIComponent(messageId)}`, { signal: options.signal, body });
    },
    async deleteMessage(_target, messageId, options) {
      await callChatterbox(account, "DELETE", `/messages/${encodeURIComponent(messageId)}`, { signal: options.signal });
    },
    async typing(target, options) {
      await callChatterbox(account, "POST", `/chats/${encodeURIComponent(target.chat.id)}/typing`, { signal: options.signal });
    },
  };
}

/**
 * Polls until `ctx.signal` fires, then resolves. Rejects when the token is refused (with
 * `AccountConfigError`) or the gateway cannot record a message; other failures are retried here
 * with backoff (1 s doubling to 30 s), reported as `reconnecting`.
 */
async function receiveUpdates(ctx: AccountContext<ChatterboxAccount>, botId: string): Promise<void> {
  const { account, signal } = ctx;
  let after = ctx.cursor.get(CURSOR_KEY) ?? "0";
  let failures = 0;
  while (!signal.aborted) {
    let updates: unknown;
    try {
      // A stalled connection must not hang the loop: give up a little after the long poll's own wait.
      const pollSignal = AbortSignal.any([signal, AbortSignal.timeout((POLL_WAIT_SECONDS + 10) * 1000)]);
      updates = await callChatterbox(account, "GET", `/updates?after=${after}&wait=${POLL_WAIT_SECONDS}`, { signal: pollSignal });
      if (!Array.isArray(updates)) throw new Error("GET /updates did not answer with a list");
    } catch (error) {
      if (signal.aborted) break;
      const refused = tokenRefused(error, account);
      if (refused) throw refused;
      failures += 1;
      const delayMs = Math.min(30_000, 1000 * 2 ** (failures - 1));
      ctx.status({ state: "reconnecting", detail: `polling Chatterbox failed (${String(error)}); retrying in ${delayMs / 1000} s` });
      await sleep(delayMs, undefined, { signal }).catch(() => undefined);
      continue;
    }
    if (failures > 0) ctx.status({ state: "connected" });
    failures = 0;
    for (const raw of updates) {
      const update = parseUpdate(raw);
      if (update.kind === "invalid") {
        ctx.log.warn(`ignored an update without an id: ${update.reason}`);
        continue;
      }
      if (update.kind === "skip") ctx.log.warn(`ignored ${update.reason}`);
      else if (update.message.from.id !== botId) {
        try {
          await ctx.receive(toInbound(update.message, ctx.accountId, botId));
        } catch (error) {
          if (signal.aborted) return; // the gateway is stopping: leave the update unacknowledged
          throw error;
        }
        ctx.status({ lastInboundAt: Date.now() });
      }
      // Acknowledge only now: the next poll starts after this update, also after a restart.
      after = String(update.id);
      ctx.cursor.set(CURSOR_KEY, after);
    }
  }
}

/**
 * Connects one account: checks the token with `GET /me` (rejecting with `AccountConfigError` when
 * Chatterbox refuses it), reports `connected`, and returns the session. Its `closed` settles when
 * the polling loop ends.
 */
export async function connectChatterbox(ctx: AccountContext<ChatterboxAccount>): Promise<AccountSession> {
  const { account, signal } = ctx;
  ctx.status({ state: "starting" });
  let me: { id: string; username: string };
  try {
    me = await callChatterbox(account, "GET", "/me", { signal });
  } catch (error) {
    throw tokenRefused(error, account) ?? error;
  }
  ctx.status({ state: "connected", identity: `@${me.username}` });
  ctx.log.info(`connected as @${me.username}`);
  return { ...chatterboxOutbound(account), closed: receiveUpdates(ctx, me.id) };
}
