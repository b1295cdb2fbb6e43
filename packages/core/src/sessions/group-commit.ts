// Group commit for a store's connection: the writes of one event-loop pass share one SQLite
// transaction, committed in a `setImmediate` after the first write, so concurrent turns pay one
// commit instead of one each (see `OpenAgentStoreOptions.groupCommit`).
import type Database from "better-sqlite3";

interface Batch {
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

export class GroupCommit {
  /** The open group transaction's outcome, while one is open. */
  private batch: Batch | undefined;

  /** `onRollback` runs when a commit failed and its writes are gone (caches over them must go too). */
  constructor(
    private readonly db: Database.Database,
    private readonly onRollback: () => void,
  ) {}

  /** Opens the pass's transaction unless one is open; it commits at the next `setImmediate`. */
  join(): void {
    if (this.db.inTransaction) return;
    this.db.exec("BEGIN IMMEDIATE");
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A failed commit rejects `committed()` for whoever awaits it; unobserved, it is not a crash.
    done.catch(() => undefined);
    this.batch = { done, resolve, reject };
    setImmediate(() => this.commit());
  }

  /** Commits the open batch (if any) now. */
  commit(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    try {
      if (this.db.open && this.db.inTransaction) this.db.exec("COMMIT");
      batch.resolve();
    } catch (err) {
      try {
        if (this.db.open && this.db.inTransaction) this.db.exec("ROLLBACK");
      } catch {
        // SQLite rolled back already (e.g. after an I/O error); nothing is left open.
      }
      this.onRollback();
      batch.reject(err);
    }
  }

  /** Resolves once every write made so far is committed; rejects when that commit failed. */
  committed(): Promise<void> {
    return this.batch?.done ?? Promise.resolve();
  }
}
