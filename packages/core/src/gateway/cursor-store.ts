import type { StateDb } from "../state/index.js";

/** The `AccountContext.cursor` of one account: key-value rows in the state database. */
export interface AccountCursor {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/**
 * Channel cursors (update offsets, sync tokens) in the `channel_cursors` table of the state
 * database, one namespace per channel and account. Writes are single-row upserts (autocommit).
 */
export class CursorStore {
  private readonly getStmt;
  private readonly setStmt;

  constructor(
    db: StateDb,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare<[string, string, string], { value: string }>(
      "SELECT value FROM channel_cursors WHERE channel = ? AND account_id = ? AND key = ?",
    );
    this.setStmt = db.prepare<[string, string, string, string, number]>(
      `INSERT INTO channel_cursors (channel, account_id, key, value, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (channel, account_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
  }

  /** The cursor of one account. Values must be strings (serialize anything else yourself). */
  forAccount(channel: string, accountId: string): AccountCursor {
    return {
      get: (key) => this.getStmt.get(channel, accountId, key)?.value,
      set: (key, value) => {
        if (typeof value !== "string") throw new TypeError(`cursor.set("${key}"): the value must be a string`);
        this.setStmt.run(channel, accountId, key, value, this.now());
      },
    };
  }
}
