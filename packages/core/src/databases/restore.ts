// Replacing a damaged database: the file moves aside (never deleted), and the newest backup that
// passes quick_check takes its place.
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { newestGoodBackup, stampOf } from "./backups.js";
import type { DatabaseFile } from "./catalog.js";

/** What `restoreDatabase` did. */
export interface RestoreOutcome {
  /** Where the damaged file went (`<file>.corrupt-<timestamp>`). */
  movedTo: string;
  /** Its -wal and -shm files, moved along (same suffix). */
  movedAlong: string[];
  /** The backup copied in; undefined when none passed quick_check (the next open starts empty). */
  restoredFrom?: string;
}

/**
 * Moves `db.file` (and its -wal and -shm files) aside to `<file>.corrupt-<timestamp>`, then copies
 * the newest backup of it that passes quick_check into its place (mode 0600). Without a good
 * backup the file is simply gone, and the gateway creates an empty one at its next start. The
 * caller makes sure no process has the file open.
 */
export function restoreDatabase(stateDir: string, db: DatabaseFile, now: number = Date.now()): RestoreOutcome {
  const backup = newestGoodBackup(stateDir, db.name);
  const movedTo = `${db.file}.corrupt-${stampOf(now)}`;
  renameSync(db.file, movedTo);
  const movedAlong: string[] = [];
  for (const suffix of ["-wal", "-shm"]) {
    if (!existsSync(db.file + suffix)) continue;
    renameSync(db.file + suffix, movedTo + suffix);
    movedAlong.push(movedTo + suffix);
  }
  if (!backup) return { movedTo, movedAlong };
  const tmp = path.join(path.dirname(db.file), `.${path.basename(db.file)}.restore-${process.pid}.tmp`);
  try {
    copyFileSync(backup.file, tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, db.file);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { movedTo, movedAlong, restoredFrom: backup.file };
}
