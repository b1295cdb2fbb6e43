// Bookkeeping writes that may wait a moment: queued, then committed together in one transaction,
// at the next `setImmediate` or with the next write that may not wait, whichever comes first.
// A turn makes several small writes to the inbox; committed one by one, each pays a WAL commit,
// and under load those commits were a tenth of a turn's CPU time. Queued writes keep their
// order, before any later write of the same store, so a crash leaves a prefix of them: the same
// state as a crash a moment earlier, which the replay after a restart handles anyway.
import type { StateDb } from "../state/index.js";

export class WriteBehind {
  private queued: (() => void)[] = [];
  private scheduled = false;
  private readonly commitTogether: (
    queued: readonly (() => void)[],
    write: (() => unknown) | undefined,
  ) => { failures: unknown[]; result: unknown };

  /** `onError` hears of a queued write that failed (the others and the next write still commit). */
  constructor(
    private readonly db: StateDb,
    private readonly onError: (err: unknown) => void,
  ) {
    this.commitTogether = db.transaction((queued: readonly (() => void)[], write: (() => unknown) | undefined) => {
      const failures: unknown[] = [];
      for (const queuedWrite of queued) {
        // A failing statement undoes itself alone; the transaction goes on.
        try {
          queuedWrite();
        } catch (err) {
          failures.push(err);
        }
      }
      return { failures, result: write?.() };
    });
  }

  /** Queues a write; it commits at the next `setImmediate` at the latest. */
  later(write: () => void): void {
    this.queued.push(write);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /**
   * Commits the queued writes and then `write`, in one transaction, and returns what `write`
   * returned: when this returns, all of them are committed. Throws when `write` throws (the
   * queued writes are then still committed, in a transaction of their own).
   */
  now<T>(write: () => T): T {
    if (this.queued.length === 0) return write();
    const queued = this.take();
    try {
      return this.commit(queued, write) as T;
    } catch (err) {
      try {
        this.commit(queued, undefined);
      } catch (queuedErr) {
        this.onError(queuedErr);
      }
      throw err;
    }
  }

  /** Commits the queued writes now (before a read, or before the database closes). */
  flush(): void {
    if (this.queued.length === 0) return;
    const queued = this.take();
    if (!this.db.open) {
      this.onError(new Error(`${queued.length} inbox write(s) were lost: the state database was closed before they were committed`));
      return;
    }
    try {
      this.commit(queued, undefined);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Runs one transaction; reports the queued writes that failed once it committed (a rolled-back try reports none). */
  private commit(queued: readonly (() => void)[], write: (() => unknown) | undefined): unknown {
    const { failures, result } = this.commitTogether(queued, write);
    for (const err of failures) this.onError(err);
    return result;
  }

  private take(): (() => void)[] {
    const queued = this.queued;
    this.queued = [];
    return queued;
  }
}
