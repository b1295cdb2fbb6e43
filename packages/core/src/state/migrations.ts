// Forward-only schema migrations for the shared state database (<stateDir>/state/openclaw.sqlite).
//
// How to extend: APPEND one entry with the next version number. Never edit or reorder an entry
// that has shipped: a database that already ran it will not run it again, so a change would leave
// old and new installs with different schemas. `PRAGMA user_version` holds the last version applied;
// each migration runs in the same transaction as the bump of user_version.
import type Database from "better-sqlite3";
import { CRON_MIGRATION } from "./cron-store.js";

/** One schema step. `up` runs inside a write transaction; throw to abort the whole upgrade. */
export interface StateMigration {
  /** 1, 2, 3, ... strictly increasing; becomes `PRAGMA user_version` once applied. */
  version: number;
  /** Short human label, shown in errors. */
  name: string;
  /** Applies the change. Must not open or commit its own transaction. */
  up(db: Database.Database): void;
}

/** Every migration of the shared state database, oldest first. */
export const STATE_MIGRATIONS: readonly StateMigration[] = [
  {
    version: 1,
    name: "workspace setup state and attestation",
    up(db) {
      db.exec(`
        CREATE TABLE workspace_setup (
          workspace_dir       TEXT PRIMARY KEY,
          bootstrap_seeded_at TEXT,
          setup_completed_at  TEXT,
          updated_at          TEXT NOT NULL
        ) STRICT;
        CREATE TABLE workspace_attestation (
          workspace_dir    TEXT PRIMARY KEY,
          attested_at_ms   INTEGER NOT NULL,
          generated_hashes TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 2,
    name: "pairing",
    // Owned by access/pairing-store.ts. Times are ms since the epoch; ids are normalized per
    // channel before they are stored. A code is unique within its channel.
    up(db) {
      db.exec(`
        CREATE TABLE pairing_pending (
          channel     TEXT NOT NULL,
          account_id  TEXT NOT NULL,
          code        TEXT NOT NULL,
          sender_id   TEXT NOT NULL,
          sender_name TEXT,
          created_at  INTEGER NOT NULL,
          expires_at  INTEGER NOT NULL,
          PRIMARY KEY (channel, code)
        ) STRICT;
        CREATE UNIQUE INDEX pairing_pending_sender ON pairing_pending (channel, account_id, sender_id);
        CREATE INDEX pairing_pending_code ON pairing_pending (code);
        CREATE TABLE pairing_approved (
          channel     TEXT NOT NULL,
          account_id  TEXT NOT NULL,
          sender_id   TEXT NOT NULL,
          sender_name TEXT,
          approved_at INTEGER NOT NULL,
          code        TEXT,
          PRIMARY KEY (channel, account_id, sender_id)
        ) STRICT;
        CREATE INDEX pairing_approved_sender ON pairing_approved (channel, sender_id);
      `);
    },
  },
  {
    version: 3,
    name: "channel-cursors",
    up(db) {
      // Small per-account key-value rows a channel plugin keeps across restarts (update offsets,
      // sync tokens): `AccountContext.cursor`.
      db.exec(`
        CREATE TABLE channel_cursors (
          channel    TEXT NOT NULL,
          account_id TEXT NOT NULL,
          key        TEXT NOT NULL,
          value      TEXT NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (channel, account_id, key)
        ) STRICT;
      `);
    },
  },
  {
    version: 4,
    name: "outbound delivery ledger",
    up(db) {
      // Final replies and their delivered parts, so each is sent exactly once across retries and
      // restarts (channels-runtime/ledger.ts).
      db.exec(`
        CREATE TABLE delivery_ledger (
          key          TEXT PRIMARY KEY,
          channel      TEXT NOT NULL,
          account_id   TEXT NOT NULL,
          target_json  TEXT NOT NULL,
          chunks_json  TEXT NOT NULL,
          created_at   INTEGER NOT NULL,
          completed_at INTEGER
        ) STRICT;
        CREATE TABLE delivery_ledger_parts (
          key        TEXT NOT NULL REFERENCES delivery_ledger(key) ON DELETE CASCADE,
          idx        INTEGER NOT NULL,
          message_id TEXT NOT NULL,
          sent_at    INTEGER NOT NULL,
          PRIMARY KEY (key, idx)
        ) STRICT;
        CREATE INDEX delivery_ledger_pending ON delivery_ledger (completed_at) WHERE completed_at IS NULL;
      `);
    },
  },
  {
    version: 5,
    name: "inbox",
    up(db) {
      // Owned by inbox/store.ts. One row per inbound channel message, committed before
      // `receive` resolves; `id` is the arrival order. `state`: pending -> answered | dropped.
      // `started_at`: the message's own reply began (its handler got the run's first event).
      // inbox_reply_messages: the messages each reply attempt put in the chat (id and text shown),
      // so a reply replayed after a crash continues in them instead of sending its text again.
      db.exec(`
        CREATE TABLE inbox (
          id           INTEGER PRIMARY KEY,
          channel      TEXT NOT NULL,
          account_id   TEXT NOT NULL,
          chat_id      TEXT NOT NULL,
          message_id   TEXT NOT NULL,
          message_json TEXT NOT NULL,
          received_at  INTEGER NOT NULL,
          state        TEXT NOT NULL DEFAULT 'pending',
          reason       TEXT,
          attempts     INTEGER NOT NULL DEFAULT 1,
          started_at   INTEGER,
          settled_at   INTEGER,
          UNIQUE (channel, account_id, chat_id, message_id)
        ) STRICT;
        CREATE INDEX inbox_pending ON inbox (channel, account_id, id) WHERE state = 'pending';
        CREATE TABLE inbox_reply_messages (
          inbox_id   INTEGER NOT NULL REFERENCES inbox(id) ON DELETE CASCADE,
          seq        INTEGER NOT NULL,
          message_id TEXT NOT NULL,
          text       TEXT NOT NULL,
          deleted    INTEGER NOT NULL DEFAULT 0,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (inbox_id, seq)
        ) STRICT;
      `);
    },
  },
  // The cron tables (version 6) are defined beside their store in cron-store.ts.
  CRON_MIGRATION,
];
