import { existsSync, rmSync } from "node:fs";
import { listDatabaseFiles, type DatabaseFile, stateDatabase } from "../databases/index.js";
import { type ReferenceDatabase, referenceDatabaseAt } from "../databases/reference-written.js";
import { readLiveGatewayRecord } from "../gateway/index.js";
import { openAgentStore } from "../sessions/index.js";
import { openStateDb } from "../state/index.js";
import { importReferenceSessions } from "./reference/import-sessions.js";
import { importReferenceState } from "./reference/import-state.js";
import { asideName, moveAside, moveBack, nonEmptyTables, notImportedLines, openSource } from "./reference/source.js";
import { emptyResult, type DoctorStepResult, type DoctorStep } from "./types.js";

/** Why the reference tables with rows that are not imported stay behind (in the file kept aside). */
const NOT_IMPORTED: Readonly<Record<string, string>> = {
  cron_jobs: "this openclaw has no cron yet",
  cron_run_receipts: "this openclaw has no cron yet",
  trajectory_runtime_events: "the reference's run traces; this openclaw keeps none",
  transcript_event_identities: "derived from the transcript; rebuilt on import",
  session_transcript_active_events: "derived from the transcript; rebuilt on import",
  session_transcript_index_state: "the reference's search index; not used here",
  session_transcript_fts_rows: "the reference's search index; not used here",
  transcript_rewrite_watermarks: "the reference's transcript maintenance state; not used here",
  session_key_contract: "the reference's session key bookkeeping; keys are kept as they are",
  memory_index_state: "the reference's memory index; not used here",
  schema_meta: "describes the reference file itself",
};
const NOT_SUPPORTED = "not supported by this openclaw";

function sessionDbs(stateDir: string): DatabaseFile[] {
  const state = stateDatabase(stateDir).file;
  return listDatabaseFiles(stateDir).filter((db) => db.file !== state);
}

/** Moves `db.file` aside, lets `importInto` write this openclaw's database in its place, and moves it back if that fails. */
function swap<T>(db: DatabaseFile, reference: ReferenceDatabase, importInto: (aside: string) => T): { aside: string; outcome: T } {
  const aside = asideName(db.file, reference.appVersion);
  moveAside(db.file, aside);
  try {
    return { aside, outcome: importInto(aside) };
  } catch (err) {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(db.file + suffix, { force: true });
    moveBack(aside, db.file);
    throw err;
  }
}

function importAgent(stateDir: string, db: DatabaseFile, reference: ReferenceDatabase, result: DoctorStepResult): void {
  const agentId = db.name.slice("agent-".length);
  const { aside, outcome } = swap(db, reference, (aside) => {
    const source = openSource(aside);
    try {
      const store = openAgentStore({ stateDir, agentId });
      try {
        return { imported: importReferenceSessions(source, store, aside), tables: nonEmptyTables(source) };
      } finally {
        store.close();
      }
    } finally {
      source.close();
    }
  });
  const { imported, tables } = outcome;
  result.changes.push(
    `${db.what}: imported ${imported.sessions} session(s) with ${imported.events} transcript event(s) from the reference OpenClaw ${reference.appVersion}'s ${db.file}; the original is kept whole as ${aside}`,
  );
  result.notes.push(...imported.problems.map((p) => `warning: ${p}`));
  result.notes.push(...notImportedLines(tables, imported.tables, NOT_IMPORTED, NOT_SUPPORTED).map((l) => `${l} (kept in ${aside})`));
}

function importState(stateDir: string, db: DatabaseFile, reference: ReferenceDatabase, result: DoctorStepResult): void {
  const { aside, outcome } = swap(db, reference, (aside) => {
    const source = openSource(aside);
    try {
      const target = openStateDb(stateDir);
      try {
        return { imported: importReferenceState(source, target), tables: nonEmptyTables(source) };
      } finally {
        target.close();
      }
    } finally {
      source.close();
    }
  });
  const { imported, tables } = outcome;
  result.changes.push(
    `${db.what}: imported ${imported.approved} approved sender(s) and ${imported.pending} pending pairing request(s) from the reference OpenClaw ${reference.appVersion}'s ${db.file}; the original is kept whole as ${aside}`,
  );
  result.notes.push(...imported.skipped.map((s) => `not imported: ${s}`));
  if (imported.cronJobs.length > 0) {
    result.notes.push(
      `not imported: ${imported.cronJobs.length} cron job(s) (${imported.cronJobs.join(", ")}): this openclaw has no cron yet (kept in ${aside})`,
    );
  }
  const read = new Set([...imported.tables, "cron_jobs"]);
  result.notes.push(...notImportedLines(tables, read, NOT_IMPORTED, NOT_SUPPORTED).map((l) => `${l} (kept in ${aside})`));
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
    const gateway = readLiveGatewayRecord(stateDir);
    if (gateway) {
      result.problems.push(
        `A gateway (pid ${gateway.pid}) runs on ${stateDir}: stop it, then run \`openclaw doctor --fix\` again to import the reference OpenClaw's databases.`,
      );
      return result;
    }
    for (const { db, reference } of found) {
      if (db.name === "state") importState(stateDir, db, reference, result);
      else importAgent(stateDir, db, reference, result);
    }
    return result;
  },
};
