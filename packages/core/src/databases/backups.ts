// Rolling backups of the databases: `<stateDir>/backups/<name>.<timestamp>.sqlite`, taken with
// SQLite's online backup API (safe while the gateway writes), checked with quick_check before they
// count, the newest few kept per database.
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { backupsDir, type DatabaseFile } from "./catalog.js";
import { isCorruptionError } from "./corruption.js";
import { checkDatabaseFile } from "./quick-check.js";

/** Backups kept per database unless told otherwise. */
export const DEFAULT_BACKUPS_KEPT = 3;

/** One backup file. */
export interface BackupFile {
  /** The database it copies (`state`, `agent-<id>`). */
  name: string;
  file: string;
  /** When it was taken (ms since the epoch), from its file name. */
  takenAt: number;
}

/** `2025-03-01T09-30-00-000Z`: an ISO time that sorts, without characters file systems dislike. */
export function stampOf(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, "-");
}

const BACKUP_NAME = /^(.+)\.(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.sqlite$/;

/** The backups in `<stateDir>/backups` (of database `name`, or of all), newest first. */
export function listBackups(stateDir: string, name?: string): BackupFile[] {
  let entries: string[];
  try {
    entries = readdirSync(backupsDir(stateDir));
  } catch {
    return [];
  }
  const found: BackupFile[] = [];
  for (const entry of entries) {
    const m = BACKUP_NAME.exec(entry);
    if (!m || (name !== undefined && m[1] !== name)) continue;
    const takenAt = Date.parse(`${m[2]}T${m[3]}:${m[4]}:${m[5]}.${m[6]}Z`);
    if (Number.isFinite(takenAt)) found.push({ name: m[1]!, file: path.join(backupsDir(stateDir), entry), takenAt });
  }
  return found.sort((a, b) => b.takenAt - a.takenAt || b.file.localeCompare(a.file));
}

/** The newest backup of `name` that passes quick_check (older ones are tried in turn); undefined when none does. */
export function newestGoodBackup(stateDir: string, name: string): BackupFile | undefined {
  return listBackups(stateDir, name).find((b) => {
    try {
      return checkDatabaseFile(b.file).ok;
    } catch {
      return false;
    }
  });
}

/**
 * Deletes the temporary files of backups a killed process left in `<stateDir>/backups`
 * (`.<name>.<time>.sqlite.<pid>.tmp`). Only for the one process that takes backups (the gateway).
 */
export function removeLeftoverTemporaries(stateDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(backupsDir(stateDir));
  } catch {
    return [];
  }
  const leftovers = entries.filter((e) => /^\..+\.sqlite\.\d+\.tmp$/.test(e)).map((e) => path.join(backupsDir(stateDir), e));
  for (const file of leftovers) rmSync(file, { force: true });
  return leftovers;
}

/** How one backup went: saved (with the old backups it rotated out), or refused because the source is damaged. */
export type BackupOutcome = { ok: true; file: string; removed: string[] } | { ok: false; detail: string };

export interface BackupOptions {
  stateDir: string;
  /** Names the file; default `Date.now()`. */
  now?: number;
  /** Backups of this database kept after this one is saved; default {@link DEFAULT_BACKUPS_KEPT}. */
  keep?: number;
}

/**
 * Backs `db` up to `<stateDir>/backups/<name>.<timestamp>.sqlite` (folder 0700, file 0600) with
 * SQLite's online backup, through a read-only connection (a running gateway keeps writing). The
 * copy is a self-contained file (no -wal) and must pass quick_check; only then do older backups
 * beyond `keep` go. A damaged source (a corruption error, or a copy that fails quick_check) leaves
 * every earlier backup in place and returns `ok: false`. Other errors (disk full) are thrown.
 */
export async function backupDatabase(db: DatabaseFile, options: BackupOptions): Promise<BackupOutcome> {
  const dir = backupsDir(options.stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const final = path.join(dir, `${db.name}.${stampOf(options.now ?? Date.now())}.sqlite`);
  const tmp = path.join(dir, `.${path.basename(final)}.${process.pid}.tmp`);
  try {
    const source = new Database(db.file, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      await source.backup(tmp);
    } finally {
      source.close();
    }
    const copy = new Database(tmp);
    try {
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    const check = checkDatabaseFile(tmp);
    if (!check.ok) return { ok: false, detail: check.detail };
    chmodSync(tmp, 0o600);
    renameSync(tmp, final);
  } catch (err) {
    if (isCorruptionError(err)) return { ok: false, detail: (err as Error).message };
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  const keep = Math.max(1, Math.floor(options.keep ?? DEFAULT_BACKUPS_KEPT));
  const removed = listBackups(options.stateDir, db.name)
    .slice(keep)
    .map((b) => b.file);
  for (const file of removed) rmSync(file, { force: true });
  return { ok: true, file: final, removed };
}
