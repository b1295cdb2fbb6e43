import { deliveryBegin, type DeliveryBegin, type DeliveryInfo, type DeliveryLedger } from "@openclaw/delivery";
import type Database from "better-sqlite3";

/** What a final delivery needs to be resumed after a restart. */
export interface LedgerDeliveryInfo {
  channel: string;
  accountId: string;
  /** The outbound target, as JSON-able data. */
  target: unknown;
  /** The inbound message the delivery answers, when it answers one. */
  inReplyTo?: string;
  /** The final reply, already split into messages. */
  chunks: string[];
}

export interface LedgerEntry extends LedgerDeliveryInfo {
  key: string;
  /** Message ids of the chunks delivered so far, by chunk index (several for a chunk the plugin split). */
  delivered: (string[] | null)[];
  createdAt: number;
}

/**
 * The idempotency ledger of final replies, in the gateway's state database (tables from state
 * migration 4). A final is recorded
 * (with its chunks) before the first send; each delivered chunk is recorded with its message id
 * right after the platform accepted it; so a retry or a restart resumes at the first chunk not
 * yet delivered and never sends one twice.
 *
 * Storage details (no schema change): a chunk delivered as several messages keeps its ids as a JSON
 * array in `message_id` (one id is kept as it is), and the inbound message a delivery answers is
 * kept as an `inReplyTo` key beside the target in `target_json`.
 */
export class SqliteDeliveryLedger implements DeliveryLedger {
  private readonly q;

  constructor(readonly db: Database.Database) {
    this.q = {
      get: db.prepare(
        "SELECT key, channel, account_id, target_json, chunks_json, created_at, completed_at FROM delivery_ledger WHERE key = ?",
      ),
      insert: db.prepare(
        "INSERT OR IGNORE INTO delivery_ledger (key, channel, account_id, target_json, chunks_json, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      parts: db.prepare("SELECT idx, message_id FROM delivery_ledger_parts WHERE key = ? ORDER BY idx"),
      part: db.prepare("INSERT OR IGNORE INTO delivery_ledger_parts (key, idx, message_id, sent_at) VALUES (?, ?, ?, ?)"),
      complete: db.prepare("UPDATE delivery_ledger SET completed_at = ? WHERE key = ? AND completed_at IS NULL"),
      pending: db.prepare("SELECT key FROM delivery_ledger WHERE completed_at IS NULL ORDER BY created_at"),
      prune: db.prepare("DELETE FROM delivery_ledger WHERE completed_at IS NOT NULL AND completed_at < ?"),
    };
  }

  /** Records a delivery (the first call wins) and returns the parts already delivered. */
  begin(key: string, info: DeliveryInfo): DeliveryBegin {
    const target = info.inReplyTo !== undefined && isObject(info.target) ? { ...info.target, inReplyTo: info.inReplyTo } : info.target;
    this.q.insert.run(
      key,
      info.channel ?? "",
      info.accountId ?? "",
      JSON.stringify(target ?? null),
      JSON.stringify(info.chunks),
      Date.now(),
    );
    const row = this.q.get.get(key) as { completed_at: number | null };
    return deliveryBegin(row.completed_at !== null, this.read(key)!.delivered);
  }

  recordPart(key: string, index: number, messageIds: readonly string[], now = Date.now()): void {
    this.q.part.run(key, index, messageIds.length === 1 ? messageIds[0]! : JSON.stringify(messageIds), now);
  }

  complete(key: string, now = Date.now()): void {
    this.q.complete.run(now, key);
  }

  read(key: string): LedgerEntry | undefined {
    const row = this.q.get.get(key) as
      | { key: string; channel: string; account_id: string; target_json: string; chunks_json: string; created_at: number }
      | undefined;
    if (!row) return undefined;
    const chunks = JSON.parse(row.chunks_json) as string[];
    const delivered: (string[] | null)[] = chunks.map(() => null);
    for (const p of this.q.parts.all(key) as { idx: number; message_id: string }[]) delivered[p.idx] = idsOf(p.message_id);
    const stored: unknown = JSON.parse(row.target_json);
    const { inReplyTo, ...target } = isObject(stored) ? stored : { inReplyTo: undefined };
    return {
      key: row.key,
      channel: row.channel,
      accountId: row.account_id,
      target: isObject(stored) ? target : stored,
      ...(typeof inReplyTo === "string" ? { inReplyTo } : {}),
      chunks,
      delivered,
      createdAt: row.created_at,
    };
  }

  /** Finals that were recorded but not completed (a crash or shutdown interrupted them). */
  pending(): LedgerEntry[] {
    return (this.q.pending.all() as { key: string }[]).map((r) => this.read(r.key)!).filter(Boolean);
  }

  /** Forgets completed deliveries older than `olderThanMs` (default 7 days). */
  prune(olderThanMs = 7 * 24 * 3600_000, now = Date.now()): number {
    return this.q.prune.run(now - olderThanMs).changes;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The ids of a stored part: a JSON array of several, or one id as it is. */
function idsOf(stored: string): string[] {
  if (stored.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((id) => typeof id === "string")) return parsed;
    } catch {
      // An id that merely starts with "[".
    }
  }
  return [stored];
}
