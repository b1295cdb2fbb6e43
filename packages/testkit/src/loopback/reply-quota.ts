// The loopback platform's reply quota, as QQ Bot keeps one: at most `perInbound` messages and
// indicators answering one user message within a window; the next is refused.
import { PermanentSendError } from "@openclaw/plugin-sdk";
import type { Refusal } from "./faults.js";
import type { LoopbackOp } from "./types.js";

/** The calls that spend a reply: everything that makes a message or an indicator in the chat. */
const SPENDING: ReadonlySet<LoopbackOp> = new Set(["send", "media", "typing", "stream-open"]);

/** Internal: reply counts per user message. */
export class ReplyQuotaCounter {
  readonly #quota: { perInbound: number; windowMs: number } | undefined;
  readonly #spent = new Map<string, { count: number; since: number }>();

  constructor(quota: { perInbound: number; windowMs: number } | undefined) {
    this.#quota = quota;
  }

  /** The refusal for a call past the quota, if any. */
  check(op: LoopbackOp, chatId: string, inReplyTo: string | undefined, now: number): Refusal | undefined {
    const entry = this.#entry(op, chatId, inReplyTo, now);
    if (entry === undefined || entry.count < this.#quota!.perInbound) return undefined;
    const message = `Bad Request: reply limit exceeded: message ${inReplyTo} already has ${entry.count} replies (at most ${this.#quota!.perInbound})`;
    return { error: new PermanentSendError(message, "reply_quota"), code: "reply_quota" };
  }

  /** Counts an accepted call. */
  spend(op: LoopbackOp, chatId: string, inReplyTo: string | undefined, now: number): void {
    const entry = this.#entry(op, chatId, inReplyTo, now);
    if (entry !== undefined) entry.count += 1;
  }

  clear(): void {
    this.#spent.clear();
  }

  #entry(op: LoopbackOp, chatId: string, inReplyTo: string | undefined, now: number) {
    if (this.#quota === undefined || inReplyTo === undefined || !SPENDING.has(op)) return undefined;
    const key = `${chatId}\u0000${inReplyTo}`;
    let entry = this.#spent.get(key);
    if (entry === undefined || now - entry.since >= this.#quota.windowMs) {
      entry = { count: 0, since: now };
      this.#spent.set(key, entry);
    }
    return entry;
  }
}
