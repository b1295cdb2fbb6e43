// `PRAGMA quick_check` on one database file.
import Database from "better-sqlite3";
import { isCorruptionError } from "./corruption.js";

/** The outcome of checking one file: intact, or damaged with what SQLite said. */
export type IntegrityResult = { ok: true } | { ok: false; detail: string };

/**
 * Opens `file` read-only and runs `PRAGMA quick_check` (reads every page once; about a second per
 * few hundred MB). A file SQLite cannot read as a database (`SQLITE_NOTADB`, `SQLITE_CORRUPT`) is
 * damaged too. Other errors (a missing file, no permission) are thrown: they are not damage.
 * Safe while another process writes the file (WAL readers see the last commit).
 */
export function checkDatabaseFile(file: string): IntegrityResult {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    const rows = db.pragma("quick_check(3)") as { quick_check: string }[];
    const messages = rows.map((r) => r.quick_check);
    return messages.length === 1 && messages[0] === "ok" ? { ok: true } : { ok: false, detail: messages.join("; ") };
  } catch (err) {
    if (isCorruptionError(err)) return { ok: false, detail: (err as Error).message };
    throw err;
  } finally {
    db?.close();
  }
}
