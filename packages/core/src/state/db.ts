import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { UserError } from "../config/index.js";
import { DatabaseCorruptError, damageOf, isCorruptionError, stateDatabase } from "../databases/index.js";
import { assertNotReferenceDatabase } from "../databases/reference-written.js";
import { STATE_MIGRATIONS, type StateMigration } from "./migrations.js";
import { stateDbPath } from "./paths.js";

export { stateDbPath };

/** An open handle on the shared state database (better-sqlite3, synchronous). Close it when done. */
export type StateDb = Database.Database;

/** Busy timeout applied to every connection unless overridden. */
export const STATE_DB_BUSY_TIMEOUT_MS = 5000;

export interface OpenStateDbOptions {
  /** Migration list to apply; defaults to {@link STATE_MIGRATIONS}. Tests may pass their own. */
  migrations?: readonly StateMigration[];
  /** How long a statement waits for another connection's lock; default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating when missing) the shared state database and brings its schema up to date.
 * - The folder `<stateDir>/state` is created with mode 0700; WAL, synchronous=NORMAL,
 *   `busy_timeout` and foreign keys are switched on for the connection. A committed transaction
 *   survives a crash of the process (SIGKILL included: the WAL is in the OS page cache, written
 *   before the commit returns); the last commits can be lost on power failure or an OS crash
 *   (never the file: it is not corrupted). FULL would fsync at every commit, several per turn.
 * - Pending migrations run in order, each in its own IMMEDIATE transaction together with the bump
 *   of `PRAGMA user_version`, so two processes opening at once cannot both apply one.
 * - A database written by the reference OpenClaw (its `schema_meta` row) is refused with a
 *   `ReferenceDatabaseError` that says to run `openclaw doctor --fix` (the file is left untouched).
 * - A database whose `user_version` is newer than the newest known migration is refused with a
 *   UserError naming the file and both versions (the file is left untouched).
 * - A damaged file (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) is refused with a {@link DatabaseCorruptError}
 *   naming it and the fix (the newest good backup, or moving it aside).
 */
export function openStateDb(stateDir: string, options: OpenStateDbOptions = {}): StateDb {
  const migrations = options.migrations ?? STATE_MIGRATIONS;
  checkMigrationList(migrations);
  const file = stateDbPath(stateDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    assertNotReferenceDatabase(db, file);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? STATE_DB_BUSY_TIMEOUT_MS))}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    migrateStateDb(db, file, migrations);
    return db;
  } catch (err) {
    db?.close();
    if (isCorruptionError(err)) throw new DatabaseCorruptError([damageOf(stateDir, stateDatabase(stateDir), (err as Error).message)]);
    throw err;
  }
}

/** Runs `fn` with a freshly opened state database and closes it afterwards, even on error. */
export function withStateDb<T>(stateDir: string, fn: (db: StateDb) => T): T {
  const db = openStateDb(stateDir);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The schema version recorded in the database (`PRAGMA user_version`). */
export function stateDbSchemaVersion(db: StateDb): number {
  return db.pragma("user_version", { simple: true }) as number;
}

function migrateStateDb(db: StateDb, file: string, migrations: readonly StateMigration[]): void {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  const refuseIfNewer = (current: number): void => {
    if (current > latest) {
      throw new UserError(
        `${file} has schema version ${current}, but this OpenClaw only knows versions up to ${latest}. ` +
          `It was written by a newer OpenClaw release. Upgrade OpenClaw, or move the file aside ` +
          `to start with an empty state database (its workspace setup state, pairing codes and ` +
          `delivery records are then lost).`,
      );
    }
  };
  refuseIfNewer(stateDbSchemaVersion(db));
  for (const migration of migrations) {
    const step = db.transaction(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      const current = stateDbSchemaVersion(db);
      refuseIfNewer(current);
      if (current >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    });
    if (stateDbSchemaVersion(db) < migration.version) step.immediate();
  }
}

// Versions must increase; a gap is tolerated (a version reserved by work not merged yet), and the
// migrations still apply in version order.
function checkMigrationList(migrations: readonly StateMigration[]): void {
  migrations.forEach((m, i) => {
    const previous = i === 0 ? 0 : migrations[i - 1]!.version;
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(
        `state migrations must be numbered in increasing order (1, 2, 3, ...); entry ${i} ("${m.name}") has version ${m.version} after ${previous}`,
      );
    }
  });
}
