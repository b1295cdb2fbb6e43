import { readFileSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { UserError } from "../config/index.js";
import { assertNotReferenceDatabase } from "../databases/reference-written.js";

type Db = BetterSqlite3.Database;

/** One forward-only schema step; `up` runs inside the migration transaction. */
export interface Migration {
  version: number;
  description: string;
  up(db: Db): void;
}

/** Every migration in order; version N is the N-th entry. Never edit a shipped entry: append. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "sessions, session entries, transcript events and their identities",
    up(db) {
      db.exec(`
        CREATE TABLE schema_meta (
          meta_key TEXT PRIMARY KEY,
          role TEXT NOT NULL,
          schema_version INTEGER NOT NULL,
          agent_id TEXT NOT NULL,
          app_version TEXT,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE sessions (
          session_id TEXT PRIMARY KEY,
          session_key TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          started_at INTEGER NOT NULL,
          ended_at INTEGER,
          status TEXT NOT NULL DEFAULT 'active',
          chat_type TEXT,
          channel TEXT,
          model_provider TEXT,
          model TEXT,
          agent_harness_id TEXT,
          parent_session_key TEXT,
          spawned_by TEXT,
          display_name TEXT,
          previous_session_id TEXT,
          start_reason TEXT
        ) STRICT;
        CREATE INDEX sessions_by_key ON sessions (session_key, created_at);

        CREATE TABLE session_entries (
          session_key TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
          entry_json TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE transcript_events (
          session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          event_json TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, seq)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE transcript_event_identities (
          session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
          event_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          event_type TEXT NOT NULL,
          has_parent INTEGER NOT NULL,
          parent_id TEXT,
          message_idempotency_key TEXT,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, event_id)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX transcript_event_idempotency
          ON transcript_event_identities (message_idempotency_key)
          WHERE message_idempotency_key IS NOT NULL;

        CREATE TABLE legacy_imports (
          source_path TEXT NOT NULL,
          session_id TEXT NOT NULL,
          session_key TEXT NOT NULL,
          event_count INTEGER NOT NULL,
          problem_count INTEGER NOT NULL,
          imported_at INTEGER NOT NULL,
          PRIMARY KEY (source_path, session_id)
        ) STRICT;

        CREATE TABLE writer_lock (
          lock_name TEXT PRIMARY KEY,
          pid INTEGER NOT NULL,
          hostname TEXT NOT NULL,
          token TEXT NOT NULL,
          acquired_at INTEGER NOT NULL
        ) STRICT;
      `);
    },
  },
];

/** The schema version this code writes (the number of migrations). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** `PRAGMA user_version` of an open database. */
export function readSchemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Throws a UserError when the database was written by a newer openclaw than this one, naming
 * the file, both versions and the fix, and a `ReferenceDatabaseError` (run `openclaw doctor
 * --fix`) when the reference OpenClaw wrote it. Call before anything writes to the file.
 */
export function assertSchemaNotNewer(db: Db, file: string, known: number = SCHEMA_VERSION): void {
  assertNotReferenceDatabase(db, file);
  const found = readSchemaVersion(db);
  if (found > known) {
    throw new UserError(
      `${file} has session schema version ${found}, but this openclaw (@openclaw/core ${appVersion()}) ` +
        `only understands versions up to ${known}. It was written by a newer openclaw; upgrade ` +
        `openclaw to open it (downgrades are not supported; the file was left untouched).`,
    );
  }
}

let cachedVersion: string | undefined;
/** The @openclaw/core package version, recorded in schema_meta. */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
        version?: string;
      };
      cachedVersion = pkg.version ?? "unknown";
    } catch {
      cachedVersion = "unknown";
    }
  }
  return cachedVersion;
}

/**
 * Applies every migration above the database's `user_version`, in order, and records the result
 * in `schema_meta`. Must run inside a write transaction (the caller's). Returns the versions
 * before and after.
 */
export function migrate(
  db: Db,
  options: { agentId: string; now: number; migrations?: readonly Migration[] },
): { from: number; to: number } {
  const migrations = options.migrations ?? MIGRATIONS;
  const from = readSchemaVersion(db);
  let to = from;
  for (const m of migrations) {
    if (m.version <= to) continue;
    if (m.version !== to + 1) throw new Error(`session schema migration ${to + 1} is missing`);
    m.up(db);
    to = m.version;
    db.pragma(`user_version = ${to}`);
  }
  if (to !== from || from === 0) {
    db.prepare(
      `INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at)
       VALUES ('primary', 'agent', @to, @agentId, @app, @now, @now)
       ON CONFLICT (meta_key) DO UPDATE SET schema_version = @to, app_version = @app, updated_at = @now`,
    ).run({ to, agentId: options.agentId, app: appVersion(), now: options.now });
  }
  return { from, to };
}
