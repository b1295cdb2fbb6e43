// `PRAGMA quick_check` on the database files, before the gateway opens them and in doctor.
import { UserError } from "../config/index.js";
import { newestGoodBackup } from "./backups.js";
import { backupsDir, listDatabaseFiles, type DatabaseFile } from "./catalog.js";
import { DatabaseCorruptError, type DamagedDatabase } from "./corruption.js";
import { checkDatabaseFile } from "./quick-check.js";

/** Describes a damaged database with its newest good backup (each candidate checked with quick_check). */
export function damageOf(stateDir: string, db: DatabaseFile, detail: string): DamagedDatabase {
  const newest = newestGoodBackup(stateDir, db.name);
  return {
    file: db.file,
    detail,
    what: db.what,
    loses: db.loses,
    backupsDir: backupsDir(stateDir),
    ...(newest ? { newestBackup: newest.file } : {}),
  };
}

/**
 * Checks every database of the state folder (see `listDatabaseFiles`); returns the damaged ones.
 * A file that cannot be opened at all (permissions, a folder in its place) is a UserError naming it.
 */
export function findDamagedDatabases(stateDir: string): DamagedDatabase[] {
  const damaged: DamagedDatabase[] = [];
  for (const db of listDatabaseFiles(stateDir)) {
    let result: ReturnType<typeof checkDatabaseFile>;
    try {
      result = checkDatabaseFile(db.file);
    } catch (err) {
      throw new UserError(
        `${db.what} ${db.file} cannot be opened: ${(err as Error).message}. Check that it is a file you can read and write.`,
      );
    }
    if (!result.ok) damaged.push(damageOf(stateDir, db, result.detail));
  }
  return damaged;
}

/**
 * For a corruption error met while running, where SQLite does not say which file: the databases
 * that fail quick_check now, or else `likely` (the file the failed statement most probably read).
 */
export function locateDamage(stateDir: string, likely: DatabaseFile, err: unknown): DamagedDatabase[] {
  const damaged = findDamagedDatabases(stateDir);
  return damaged.length > 0 ? damaged : [damageOf(stateDir, likely, (err as Error).message)];
}

/**
 * Throws a {@link DatabaseCorruptError} naming every damaged database of the state folder and its
 * fix (restore the newest good backup with `openclaw doctor --fix`, or move the file aside), with
 * `lead` as its first line. Missing files are fine: they are created empty when first opened.
 */
export function assertDatabasesIntact(stateDir: string, lead?: string): void {
  const damaged = findDamagedDatabases(stateDir);
  if (damaged.length > 0) throw new DatabaseCorruptError(damaged, lead !== undefined ? { lead } : {});
}
