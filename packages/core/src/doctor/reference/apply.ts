// The import half of doctor's reference step (`openclaw doctor --fix` on databases the reference
// OpenClaw wrote): loaded only when there is something to import, so a plain `openclaw doctor`
// does not load the session store, the state database or the zstd decoder.
import { rmSync } from "node:fs";
import type { DatabaseFile } from "../../databases/index.js";
import type { ReferenceDatabase } from "../../databases/reference-written.js";
import { openAgentStore } from "../../sessions/index.js";
import { openStateDb } from "../../state/index.js";
import type { DoctorStepResult } from "../types.js";
import { importReferenceSessions } from "./import-sessions.js";
import { importReferenceState } from "./import-state.js";
import { asideName, moveAside, moveBack, nonEmptyTables, notImportedLines, openSource } from "./source.js";

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

/** Imports the reference sessions and transcripts of one agent database into this openclaw's store; reports in `result`. */
export function importAgent(stateDir: string, db: DatabaseFile, reference: ReferenceDatabase, result: DoctorStepResult): void {
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

/** Imports the reference pairing allowlists and pending requests into this openclaw's state database; reports in `result`. */
export function importState(stateDir: string, db: DatabaseFile, reference: ReferenceDatabase, result: DoctorStepResult): void {
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
