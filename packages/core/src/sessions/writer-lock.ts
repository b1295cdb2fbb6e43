import Database from "better-sqlite3";
import { UserError } from "../config/index.js";

/** Thrown when another store object (in this or another process) already writes the database. */
export class StoreLockedError extends UserError {
  constructor(
    readonly file: string,
    readonly holder?: { pid: number; hostname: string; acquiredAt: number },
  ) {
    const who = holder
      ? `process ${holder.pid} on ${holder.hostname} (since ${new Date(holder.acquiredAt).toISOString()})`
      : "another openclaw process";
    super(
      `${file} is already open for writing by ${who}. Only one process (the gateway) writes an ` +
        `agent's session database. Stop the gateway before running commands that write sessions ` +
        `(e.g. \`openclaw doctor --fix\`), or use read-only commands such as \`openclaw sessions list\`.`,
    );
    this.name = "StoreLockedError";
  }
}

/** A held writer lock; `release()` is idempotent. */
export interface WriterLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes the single-writer lock of a session database: an exclusive SQLite lock on the side file
 * `<db>.writer-lock`, held for the life of the store. The operating system drops it when the
 * process dies (even by SIGKILL), so a crashed gateway never leaves a stale lock behind; a
 * second opener in any process (this one included) fails at once with SQLITE_BUSY.
 * Returns undefined when the lock is held elsewhere.
 */
export function tryAcquireWriterLock(dbFile: string, waitMs = 250): WriterLock | undefined {
  const path = `${dbFile}.writer-lock`;
  const db = new Database(path, { timeout: waitMs });
  try {
    db.pragma("journal_mode = MEMORY");
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") return undefined;
    throw err;
  }
  let held = true;
  return {
    path,
    release() {
      if (held) {
        held = false;
        db.close();
      }
    },
  };
}
