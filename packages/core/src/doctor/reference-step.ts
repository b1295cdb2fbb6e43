import { existsSync } from "node:fs";
import { listDatabaseFiles, type DatabaseFile, stateDatabase } from "../databases/index.js";
import { type ReferenceDatabase, referenceDatabaseAt } from "../databases/reference-written.js";
import { emptyResult, type DoctorStep } from "./types.js";

function sessionDbs(stateDir: string): DatabaseFile[] {
  const state = stateDatabase(stateDir).file;
  return listDatabaseFiles(stateDir).filter((db) => db.file !== state);
}

/**
 * Finds the databases the reference OpenClaw wrote at this openclaw's paths (by their
 * `schema_meta` row) and, with --fix, imports what this openclaw supports: sessions with their
 * transcripts and entries (agent databases); pairing allowlists and pending requests (the state
 * database). Each original moves aside whole to `<file>.reference-<release>` first, and this
 * openclaw's database is written in its place; every table with rows that is not imported is
 * listed. Refused while a gateway runs on the state folder. A second run finds nothing to do.
 */
export const referenceStep: DoctorStep = {
  id: "reference",
  title: "Data of the reference OpenClaw",
  async run({ paths, fix }) {
    const result = emptyResult();
    const { stateDir } = paths;
    const found: { db: DatabaseFile; reference: ReferenceDatabase }[] = [];
    const state = stateDatabase(stateDir);
    for (const db of [...(existsSync(state.file) ? [state] : []), ...sessionDbs(stateDir)]) {
      const reference = referenceDatabaseAt(db.file);
      if (reference) found.push({ db, reference });
    }
    if (found.length === 0) return result;
    if (!fix) {
      for (const { db, reference } of found) {
        result.changes.push(
          `${db.what} ${db.file} was written by the reference OpenClaw ${reference.appVersion} (schema ${reference.schemaVersion}) -> import ${db.name === "state" ? "its pairing allowlists and pending requests" : "its sessions and transcripts"}, keep the original whole next to it, and write this openclaw's database in its place`,
        );
      }
      return result;
    }
    // Imported here: the gateway module (with its WebSocket client) matters only to an import.
    const { readLiveGatewayRecord } = await import("../gateway/index.js");
    const gateway = readLiveGatewayRecord(stateDir);
    if (gateway) {
      result.problems.push(
        `A gateway (pid ${gateway.pid}) runs on ${stateDir}: stop it, then run \`openclaw doctor --fix\` again to import the reference OpenClaw's databases.`,
      );
      return result;
    }
    const { importAgent, importState } = await import("./reference/apply.js");
    for (const { db, reference } of found) {
      if (db.name === "state") importState(stateDir, db, reference, result);
      else importAgent(stateDir, db, reference, result);
    }
    return result;
  },
};
