import {
  backupsDir,
  checkDatabaseFile,
  damageOf,
  listBackups,
  listDatabaseFiles,
  restoreDatabase,
  type DamagedDatabase,
} from "../databases/index.js";
import { emptyResult, type DoctorStep } from "./types.js";

function plannedFix(d: DamagedDatabase): string {
  const then = d.newestBackup
    ? ` and restore the newest good backup ${d.newestBackup}`
    : ` (no good backup is in ${d.backupsDir}, so the gateway then starts with an empty one: ${d.loses} are lost)`;
  return `${d.what} ${d.file} is damaged (${d.detail}) -> move it aside${then}`;
}

/**
 * Checks the state database and every agent's session database with `PRAGMA quick_check`. With
 * --fix (refused while a gateway runs on this state folder) a damaged file moves aside to
 * `<file>.corrupt-<time>` and the newest backup that passes quick_check takes its place. Notes
 * which backups exist.
 */
export const databasesStep: DoctorStep = {
  id: "databases",
  title: "Databases",
  async run({ paths, fix }) {
    const result = emptyResult();
    const { stateDir } = paths;
    const databases = listDatabaseFiles(stateDir);
    for (const db of databases) {
      let check: ReturnType<typeof checkDatabaseFile>;
      try {
        check = checkDatabaseFile(db.file);
      } catch (err) {
        result.problems.push(`${db.what} ${db.file} cannot be read: ${(err as Error).message}`);
        continue;
      }
      if (check.ok) continue;
      const damage = damageOf(stateDir, db, check.detail);
      if (!fix) {
        result.changes.push(plannedFix(damage));
        continue;
      }
      // Imported here: the gateway module (with its WebSocket client) matters only to a repair.
      const { readLiveGatewayRecord } = await import("../gateway/index.js");
      const gateway = readLiveGatewayRecord(stateDir);
      if (gateway) {
        result.problems.push(
          `${db.what} ${db.file} is damaged (${check.detail}), and a gateway (pid ${gateway.pid}) has it open: stop the gateway, then run \`openclaw doctor --fix\` again.`,
        );
        continue;
      }
      const outcome = restoreDatabase(stateDir, db);
      result.changes.push(
        outcome.restoredFrom
          ? `moved the damaged ${db.file} aside to ${outcome.movedTo} and restored the backup ${outcome.restoredFrom}`
          : `moved the damaged ${db.file} aside to ${outcome.movedTo}; no good backup was in ${damage.backupsDir}, so the gateway starts with an empty one (${db.loses} are lost)`,
      );
    }
    for (const db of databases) {
      const backups = listBackups(stateDir, db.name);
      const newest = backups[0];
      result.notes.push(
        newest
          ? `${db.name}: ${backups.length} backup(s), the newest ${newest.file} (${new Date(newest.takenAt).toISOString()})`
          : `${db.name}: no backup yet in ${backupsDir(stateDir)} (the gateway takes one at start and every 6 hours)`,
      );
    }
    return result;
  },
};
