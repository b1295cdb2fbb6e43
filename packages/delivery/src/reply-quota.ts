// The per-inbound reply quota of a platform (QQ Bot: 5 passive replies per user message), as the
// send budget keeps it: the final's share is reserved, typing goes first when replies run short.
import type { SendPriority } from "@openclaw/plugin-sdk";

/** A platform's reply quota (`ChannelCapabilities.replyQuota`). */
export interface ReplyQuota {
  /** Replies allowed per inbound message. */
  perInbound: number;
  /** Counted from the first reply; after this long the count starts over. */
  windowMs: number;
}

/**
 * Replies that must remain after a send of each priority, beyond the final's reserve: a final may
 * take the last one, a block leaves the reserve, a preview one more, typing two more (so typing is
 * dropped first, then previews, then blocks are held for the final).
 */
const HEADROOM: Record<SendPriority, number> = { final: 0, block: 0, preview: 1, typing: 2 };

interface Entry {
  spent: number;
  since: number;
}

/** Internal: the reply counts of one account's inbound messages. */
export class ReplyQuotaBook {
  readonly #quota: ReplyQuota;
  readonly #reserve: number;
  readonly #entries = new Map<string, Entry>();
  #sweepAt = 256;

  constructor(quota: ReplyQuota, reserve: number) {
    this.#quota = { perInbound: Math.max(1, Math.floor(quota.perInbound)), windowMs: Math.max(0, quota.windowMs) };
    this.#reserve = Math.min(Math.max(1, Math.floor(reserve)), this.#quota.perInbound);
  }

  /** Replies kept for the final of every inbound message. */
  get reserve(): number {
    return this.#reserve;
  }

  /** Replies left for the inbound message `key` at `now` (negative once a final went over). */
  left(key: string, now: number): number {
    const entry = this.#entry(key, now, false);
    return this.#quota.perInbound - (entry?.spent ?? 0);
  }

  /**
   * Spends `slots` replies of `key` for a send of `priority`, when what remains afterwards keeps
   * the final's reserve (and, for previews and typing, their headroom). A final always spends, even
   * past the quota: it is never dropped (the platform decides). Returns false when refused.
   */
  claim(key: string, priority: SendPriority, slots: number, now: number): boolean {
    if (slots <= 0) return true;
    const entry = this.#entry(key, now, true)!;
    const after = this.#quota.perInbound - entry.spent - slots;
    if (priority !== "final" && after < this.#reserve + HEADROOM[priority]) return false;
    entry.spent += slots;
    return true;
  }

  /** Gives back replies claimed by a send that never left. */
  release(key: string, slots: number): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined && slots > 0) entry.spent = Math.max(0, entry.spent - slots);
  }

  #entry(key: string, now: number, create: boolean): Entry | undefined {
    let entry = this.#entries.get(key);
    if (entry !== undefined && now - entry.since >= this.#quota.windowMs) {
      this.#entries.delete(key);
      entry = undefined;
    }
    if (entry === undefined && create) {
      if (this.#entries.size >= this.#sweepAt) this.#sweep(now);
      entry = { spent: 0, since: now };
      this.#entries.set(key, entry);
    }
    return entry;
  }

  /** Forgets inbound messages whose window has passed. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) if (now - entry.since >= this.#quota.windowMs) this.#entries.delete(key);
    this.#sweepAt = Math.max(256, this.#entries.size * 2);
  }
}
