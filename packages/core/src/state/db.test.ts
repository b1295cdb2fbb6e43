import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../config/index.js";
import {
  STATE_MIGRATIONS,
  getWorkspaceAttestation,
  getWorkspaceSetupState,
  openStateDb,
  putWorkspaceAttestation,
  stateDbPath,
  stateDbSchemaVersion,
  updateWorkspaceSetupState,
  type StateMigration,
} from "./index.js";

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-state-"));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

describe("openStateDb", () => {
  it("creates <stateDir>/state/openclaw.sqlite in WAL mode at the newest schema version", () => {
    const db = openStateDb(stateDir);
    try {
      expect(db.name).toBe(path.join(stateDir, "state", "openclaw.sqlite"));
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
      expect(stateDbSchemaVersion(db)).toBe(STATE_MIGRATIONS.at(-1)!.version);
    } finally {
      db.close();
    }
    expect(statSync(path.dirname(stateDbPath(stateDir))).mode & 0o777).toBe(0o700);
  });

  it("runs only the migrations not yet applied, in order, and keeps data across reopen", () => {
    const calls: number[] = [];
    const migrations: StateMigration[] = [
      { version: 1, name: "one", up: (db) => (calls.push(1), db.exec("CREATE TABLE a (x INTEGER) STRICT")) },
    ];
    openStateDb(stateDir, { migrations }).close();
    const extended = [
      ...migrations,
      { version: 2, name: "two", up: (db: Database.Database) => (calls.push(2), db.exec("CREATE TABLE b (y TEXT) STRICT")) },
    ];
    const db = openStateDb(stateDir, { migrations: extended });
    try {
      expect(calls).toEqual([1, 2]);
      expect(stateDbSchemaVersion(db)).toBe(2);
    } finally {
      db.close();
    }
  });

  it("rolls a failing migration back entirely", () => {
    const migrations: StateMigration[] = [
      {
        version: 1,
        name: "broken",
        up: (db) => {
          db.exec("CREATE TABLE half (x INTEGER)");
          throw new Error("boom");
        },
      },
    ];
    expect(() => openStateDb(stateDir, { migrations })).toThrow("boom");
    const raw = new Database(stateDbPath(stateDir));
    try {
      expect(raw.pragma("user_version", { simple: true })).toBe(0);
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    } finally {
      raw.close();
    }
  });

  it("refuses a database written by a newer release, naming the file and both versions", () => {
    openStateDb(stateDir).close();
    const raw = new Database(stateDbPath(stateDir));
    raw.pragma("user_version = 99");
    raw.close();
    let error: unknown;
    try {
      openStateDb(stateDir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UserError);
    const message = (error as Error).message;
    expect(message).toContain(stateDbPath(stateDir));
    expect(message).toContain("99");
    expect(message).toContain(`up to ${STATE_MIGRATIONS.at(-1)!.version}`);
    // untouched
    const again = new Database(stateDbPath(stateDir));
    expect(again.pragma("user_version", { simple: true })).toBe(99);
    again.close();
  });

  it("rejects a migration list out of order, and applies one with a gap in version order", () => {
    const noop = () => {};
    expect(() =>
      openStateDb(stateDir, {
        migrations: [
          { version: 2, name: "a", up: noop },
          { version: 1, name: "b", up: noop },
        ],
      }),
    ).toThrow(/increasing order/);
    const applied: number[] = [];
    const db = openStateDb(stateDir, {
      migrations: [1, 3].map((version) => ({ version, name: `v${version}`, up: () => void applied.push(version) })),
    });
    expect(applied).toEqual([1, 3]);
    expect(stateDbSchemaVersion(db)).toBe(3);
    db.close();
  });
});

describe("workspace tables", () => {
  it("upserts setup state field by field and stores attestations", () => {
    const db = openStateDb(stateDir);
    try {
      expect(getWorkspaceSetupState(db, "/w")).toBeUndefined();
      updateWorkspaceSetupState(db, "/w", { bootstrapSeededAt: "2026-01-01T00:00:00.000Z" });
      updateWorkspaceSetupState(db, "/w/", { setupCompletedAt: "2026-01-02T00:00:00.000Z" });
      expect(getWorkspaceSetupState(db, "/w")).toEqual({
        bootstrapSeededAt: "2026-01-01T00:00:00.000Z",
        setupCompletedAt: "2026-01-02T00:00:00.000Z",
      });
      putWorkspaceAttestation(db, "/w", { attestedAtMs: 5, generatedHashes: { "AGENTS.md": "ab" } });
      expect(getWorkspaceAttestation(db, "/w")).toEqual({ attestedAtMs: 5, generatedHashes: { "AGENTS.md": "ab" } });
    } finally {
      db.close();
    }
  });
});
