import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../config/index.js";
import { importLegacySessions, legacySessionsDir, listAgentIdsWithLegacySessions, openAgentStoreReadOnly } from "../sessions/index.js";
import { emptyResult, type DoctorStep } from "./types.js";

/** Session ids in a legacy sessions.json that the agent's database does not hold yet. */
function pendingSessionIds(stateDir: string, agentId: string): { source: string; pending: string[] } {
  const source = path.join(legacySessionsDir(stateDir, agentId), "sessions.json");
  let rows: Record<string, { sessionId?: unknown }> = {};
  try {
    rows = JSON.parse(readFileSync(source, "utf8"));
  } catch {
    return { source, pending: ["(unreadable)"] };
  }
  const ids = Object.values(rows)
    .map((r) => (r && typeof r === "object" && typeof r.sessionId === "string" ? r.sessionId : undefined))
    .filter((id): id is string => id !== undefined);
  const reader = openAgentStoreReadOnly({ stateDir, agentId });
  try {
    return { source, pending: reader ? ids.filter((id) => !reader.getSession(id)) : ids };
  } finally {
    reader?.close();
  }
}

/** Imports legacy `sessions.json` + JSONL transcripts into each agent's SQLite store (sources are kept). */
export const sessionsStep: DoctorStep = {
  id: "sessions",
  title: "Sessions",
  async run({ paths, fix, progress }) {
    const result = emptyResult();
    for (const agentId of listAgentIdsWithLegacySessions(paths.stateDir)) {
      const { source, pending } = pendingSessionIds(paths.stateDir, agentId);
      if (!existsSync(source) || pending.length === 0) continue;
      if (!fix) {
        result.changes.push(
          `import ${pending.length} legacy session(s) of agent "${agentId}" from ${source} into SQLite (the source is kept)`,
        );
        continue;
      }
      const shown = progress?.(`Importing ${pending.length} legacy session(s) of agent "${agentId}"`);
      try {
        const report = importLegacySessions({
          stateDir: paths.stateDir,
          agentId,
          onProgress: (done, total) => shown?.update(`Importing legacy sessions of agent "${agentId}": ${done}/${total}`),
        });
        shown?.succeed(`Imported ${report.imported} legacy session(s) of agent "${agentId}"`);
        if (report.imported > 0) {
          result.changes.push(
            `imported ${report.imported} session(s) and ${report.events} transcript event(s) of agent "${agentId}" from ${source} (the source is kept)`,
          );
        }
        // Skipped lines and missing transcripts: the rest was imported; nothing left to fix.
        result.notes.push(...report.problems.map((p) => `warning: ${p}`));
      } catch (err) {
        shown?.fail(`Importing the legacy sessions of agent "${agentId}" failed`);
        if (!(err instanceof UserError)) throw err;
        result.problems.push(`${err.message} (a running gateway imports legacy sessions itself at start)`);
      }
    }
    return result;
  },
};
