// The types of the send budget: its limits, the options of one send, and its outcomes.
import type { DeliveryClock } from "./clock.js";
import type { ReplyQuota } from "./reply-quota.js";

/**
 * Why the budget did not send: replaced by a newer preview, no room for it now, no reply left for
 * it in the inbound message's quota (the final's share is kept), or the caller aborted.
 */
export type BudgetDropReason = "superseded" | "pressure" | "quota" | "aborted";

/** The outcome of `SendBudget.run`: the send's value, or why it was dropped. */
export type BudgetResult<T> = { status: "sent"; value: T } | { status: "dropped"; reason: BudgetDropReason };

/** Limits of a `SendBudget`; every field is optional. */
export interface SendBudgetOptions {
  /** Sends per second per chat, sustained (default 1; `Infinity` for no limit). */
  perChatRate?: number;
  /** Sends a chat may make in a burst (default 3, at least 1). */
  perChatBurst?: number;
  /** Sends per second across all chats of the account (default 30; `Infinity` for no limit). */
  globalRate?: number;
  /** Burst across all chats (default `globalRate`, or 30 when that is unlimited). */
  globalBurst?: number;
  /**
   * Previews and typing never take the last token of a chat (nor of the account), so a final
   * can always leave at once (default true; no effect when a burst is below 2).
   */
  reserveForFinal?: boolean;
  /** Rate-limit answers a final or block send absorbs before it fails (default 8). */
  maxRateLimitedAttempts?: number;
  /** Retries of a final or block send after a retryable failure: a network error, a 5xx, a `TransientSendError` (default 3). */
  maxTransientRetries?: number;
  /** First backoff after a retryable failure, doubled on every retry (default 500 ms; longer when the error's `retryAfterMs` says so). */
  transientBackoffMs?: number;
  /**
   * The platform's per-inbound reply quota (`capabilities.replyQuota`); sends that pass
   * `inReplyTo` spend it. Default: none.
   */
  replyQuota?: ReplyQuota;
  /** Replies of each inbound message kept for its final (default 1, at least 1). */
  finalReserve?: number;
  /** Time source (tests). */
  clock?: DeliveryClock;
}

/** Options of one `SendBudget.run` call. */
export interface BudgetRunOptions {
  /** A waiting preview with the same key is replaced by this one (only the newest edit is sent). */
  supersedeKey?: string;
  /** Abort: a waiting send is dropped with reason `"aborted"`; a failed one is not retried. */
  signal?: AbortSignal;
  /** The inbound message the send answers: with a reply quota, it spends `replySlots` of that message's replies. */
  inReplyTo?: string;
  /** Replies the send spends (default 1: a message, a file, typing, a stream's open; pass 0 for edits, deletes, stream updates). */
  replySlots?: number;
}

/** A final or block send that kept hitting rate limits or network errors; `cause` is the last error. */
export class SendRetriesExhaustedError extends Error {
  constructor(
    message: string,
    /** How many times the send was tried. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SendRetriesExhaustedError";
  }
}
