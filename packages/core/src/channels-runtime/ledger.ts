import type { DeliveryBegin, DeliveryInfo, DeliveryLedger } from "@openclaw/delivery";
import type Database from "better-sqlite3";

/** What a final delivery needs to be resumed after a restart. */
export interface LedgerDeliveryInfo {
  channel: string;
  accountId: string;
  /** The outbound target, as JSON-able data. */
  target: unknown;
  /** The final reply, already split into messages. */
  chunks: string[];
}

export interface LedgerEntry extends LedgerDeliveryInfo {
  key: string;
  /** Message ids of the chunks delivered so far, by chunk index. */
  delivered: (string | null)[];
  createdAt: number;
}

/**
 * The idempotency ledger of final replies, in the gateway's state database (tables from state
 * migration 4). A final is recorded
 * (with its chunks) before the first send; each delivered chunk is recorded with its message id
 * right after the platform accepted it; so a retry or a restart resumes at the first chunk not
 * yet delivered and never sends one twice.
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
    this.q.insert.run(
      key,
      info.channel ?? "",
      info.accountId ?? "",
      JSON.stringify(info.target ?? null),
      JSON.stringify(info.chunks),
      Date.now(),
    );
    const row = this.q.get.get(key) as { completed_at: number | null };
    const entry = this.read(key)!;
    const messageIds: string[] = [];
    for (const id of entry.delivered) {
      if (id === null) break;
      messageIds.push(id);
    }
    return { alreadyDelivered: row.completed_at !== null, messageIds };
  }

  recordPart(key: string, index: number, messageId: string, now = Date.now()): void {
    this.q.part.run(key, index, messageId, now);
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
    const delivered: (string | null)[] = chunks.map(() => null);
    for (const p of this.q.parts.all(key) as { idx: number; message_id: string }[]) delivered[p.idx] = p.message_id;
    return {
      key: row.key,
      channel: row.channel,
      accountId: row.account_id,
      target: JSON.parse(row.target_json),
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
