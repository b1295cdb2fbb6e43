// Databases written by the reference OpenClaw (the program this one re-implements) at the paths
// this one uses: `state/openclaw.sqlite` and `agents/<id>/agent/openclaw-agent.sqlite`. They are
// recognized by their `schema_meta` row, so that a reference user is told to run
// `openclaw doctor --fix` (which imports them) instead of "upgrade openclaw". A leaf module: the
// state and session stores import it.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { UserError } from "../config/paths.js";

/** What the `schema_meta` row of a reference-written database says. */
export interface ReferenceDatabase {
  /** The reference release that wrote it, e.g. `2026.9.6`. */
  appVersion: string;
  /** Its `PRAGMA user_version` (23 for an agent database of 2026.9.6, 18 for its state database). */
  schemaVersion: number;
  /** `global` (the state database) or `agent`. */
  role: string;
}

/** Reference releases are numbered by date (`2026.9.6`); this openclaw's packages are semver (`0.1.0`). */
const REFERENCE_RELEASE = /^\d{4}\.\d{1,2}\.\d{1,2}([-.].*)?$/;

/**
 * The reference's `schema_meta` row of an open database, or undefined when the database was not
 * written by the reference (no such table or row, or an app_version of this openclaw). The state
 * database of this openclaw has no schema_meta; its session databases record the @openclaw/core
 * version there.
 */
export function readReferenceMeta(db: Database.Database): ReferenceDatabase | undefined {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_meta'").get();
  if (!table) return undefined;
  let row: { role?: unknown; app_version?: unknown } | undefined;
  try {
    row = db.prepare("SELECT role, app_version FROM schema_meta WHERE meta_key = 'primary'").get() as typeof row;
  } catch {
    return undefined;
  }
  if (!row || typeof row.app_version !== "string" || !REFERENCE_RELEASE.test(row.app_version)) return undefined;
  return {
    appVersion: row.app_version,
    schemaVersion: db.pragma("user_version", { simple: true }) as number,
    role: typeof row.role === "string" ? row.role : "unknown",
  };
}

/** {@link readReferenceMeta} of the file at `file` (opened read-only); undefined when it is missing or unreadable. */
export function referenceDatabaseAt(file: string): ReferenceDatabase | undefined {
  if (!existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return readReferenceMeta(db);
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

/**
 * The error every command (other than doctor) raises when it meets a reference-written database:
 * it names the file, the release that wrote it and the fix (`openclaw doctor --fix`).
 */
export class ReferenceDatabaseError extends UserError {
  constructor(
    readonly file: string,
    readonly reference: ReferenceDatabase,
  ) {
    super(
      `${file} was written by the reference OpenClaw ${reference.appVersion} (its schema version ${reference.schemaVersion}), ` +
        "not by this openclaw, which cannot open it as it is. Run `openclaw doctor --fix` once: it imports what this " +
        "openclaw supports, keeps the original whole next to it, and lists what it did not import.",
    );
    this.name = "ReferenceDatabaseError";
  }
}

/** Throws {@link ReferenceDatabaseError} when the open database `db` (at `file`) was written by the reference. */
export function assertNotReferenceDatabase(db: Database.Database, file: string): void {
  const reference = readReferenceMeta(db);
  if (reference) throw new ReferenceDatabaseError(file, reference);
}
