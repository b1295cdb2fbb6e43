// Public surface of the database health concern: integrity checks, rolling backups and restores
// of the state and session databases. Other folders import from here only (the state and session
// stores import the leaf ./corruption.js, to stay free of a cycle).
export {
  isCorruptionError,
  describeDamage,
  describeDamageInOneLine,
  DatabaseCorruptError,
  type DamagedDatabase,
} from "./corruption.js";
export { backupsDir, listDatabaseFiles, stateDatabase, sessionDatabase, type DatabaseFile } from "./catalog.js";
export { checkDatabaseFile, type IntegrityResult } from "./quick-check.js";
export { assertDatabasesIntact, findDamagedDatabases, damageOf, locateDamage } from "./integrity.js";
export {
  backupDatabase,
  listBackups,
  newestGoodBackup,
  DEFAULT_BACKUPS_KEPT,
  type BackupFile,
  type BackupOutcome,
  type BackupOptions,
} from "./backups.js";
export {
  BackupSchedule,
  DEFAULT_BACKUP_INTERVAL_MS,
  type BackupScheduleOptions,
  type BackupTimers,
  type BackupRound,
} from "./schedule.js";
export { restoreDatabase, type RestoreOutcome } from "./restore.js";
