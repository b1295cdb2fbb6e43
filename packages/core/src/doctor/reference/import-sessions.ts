// Imports the sessions of a reference agent database (`openclaw-agent.sqlite`, user_version 23 in
// 2026.9.6) into this openclaw's session store: the routing rows (`session_nodes`: key, current
// session, entry JSON), every session window (`session_windows`) and its transcript
// (`transcript_events`, JSON or zstd-compressed JSON in the pi session format).
import type Database from "better-sqlite3";
import { decompress } from "fzstd";
import { parseTranscriptLines, type SessionEntry, type SessionStore, toMillis, type TranscriptLine } from "../../sessions/index.js";
import { hasTable } from "./source.js";

/** What importing one agent database did. */
export interface SessionsImport {
  sessions: number;
  events: number;
  /** Entries skipped or repaired, each naming its row. */
  problems: string[];
  /** The tables read. */
  tables: Set<string>;
}

interface WindowRow {
  session_id: string;
  session_key: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  chat_type: string | null;
  channel: string | null;
  display_name: string | null;
  entry_json: string | null;
  current_session_id: string | null;
}

interface EventRow {
  seq: number;
  event_json: string | null;
  event_zstd: Uint8Array | null;
  event_utf8_bytes: number | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The event's JSON text: `event_json`, or `event_zstd` decompressed (its length checked against `event_utf8_bytes`). */
function eventText(row: EventRow): string {
  if (row.event_json !== null) return row.event_json;
  if (row.event_zstd === null) throw new Error("neither event_json nor event_zstd is set");
  const bytes = decompress(new Uint8Array(row.event_zstd));
  if (row.event_utf8_bytes !== null && bytes.byteLength !== row.event_utf8_bytes) {
    throw new Error(`decompressed to ${bytes.byteLength} bytes, the row records ${row.event_utf8_bytes}`);
  }
  return utf8.decode(bytes);
}

function parseEntry(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Imports every session of the reference database `source` (at `sourcePath`) into `store`. Each
 * key's current session comes first, so its entry (routing, model and delivery fields, kept as
 * the reference wrote them) becomes the key's entry; older windows of the key are stored as its
 * history. Idempotent per session id. Bad rows are reported, never thrown.
 */
export function importReferenceSessions(source: Database.Database, store: SessionStore, sourcePath: string): SessionsImport {
  const result: SessionsImport = { sessions: 0, events: 0, problems: [], tables: new Set() };
  if (!hasTable(source, "session_windows") || !hasTable(source, "transcript_events")) {
    result.problems.push(`${sourcePath}: no session_windows or transcript_events table; no sessions imported`);
    return result;
  }
  const withNodes = hasTable(source, "session_nodes");
  const windows = source
    .prepare<[], WindowRow>(
      `SELECT w.session_id, w.session_key, w.created_at, w.updated_at, w.started_at, w.chat_type, w.channel, w.display_name,
              ${withNodes ? "n.entry_json, n.current_session_id" : "NULL AS entry_json, NULL AS current_session_id"}
         FROM session_windows w
         ${withNodes ? "LEFT JOIN session_nodes n ON n.session_key = w.session_key" : ""}
        ORDER BY (w.session_id = ${withNodes ? "n.current_session_id" : "NULL"}) DESC, w.created_at, w.session_id`,
    )
    .all();
  const events = source.prepare<[string], EventRow>(
    "SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ? ORDER BY seq",
  );
  for (const tbl of ["session_windows", "transcript_events", ...(withNodes ? ["session_nodes"] : [])]) result.tables.add(tbl);
  for (const w of windows) {
    const problems: string[] = [];
    const lines: TranscriptLine[] = [];
    for (const row of events.all(w.session_id)) {
      const where = `${sourcePath} transcript_events (session ${w.session_id}, seq ${row.seq})`;
      try {
        lines.push({ text: eventText(row), where });
      } catch (err) {
        problems.push(`${where}: cannot be read (${(err as Error).message}); entry skipped`);
      }
    }
    const current = w.current_session_id === w.session_id;
    const raw = current ? parseEntry(w.entry_json) : {};
    const startedAt = toMillis(raw.sessionStartedAt) ?? w.started_at ?? w.created_at;
    const transcript = parseTranscriptLines(lines, w.session_id, startedAt, problems);
    if (transcript.events.length === 0) {
      transcript.events.push({ type: "session", version: 1, id: w.session_id, timestamp: new Date(startedAt).toISOString() });
    }
    const entry: SessionEntry = {
      ...raw,
      ...(w.chat_type !== null && raw.chatType === undefined ? { chatType: w.chat_type } : {}),
      ...(w.channel !== null && raw.channel === undefined ? { channel: w.channel } : {}),
      ...(w.display_name !== null && raw.displayName === undefined ? { displayName: w.display_name } : {}),
      sessionId: w.session_id,
      sessionStartedAt: startedAt,
      updatedAt: toMillis(raw.updatedAt) ?? w.updated_at,
    };
    try {
      const outcome = store.importSession({
        key: w.session_key,
        entry,
        events: transcript.events,
        sourcePath,
        problemCount: problems.length,
      });
      if (outcome.imported) {
        result.sessions++;
        result.events += transcript.events.length;
      }
      result.problems.push(...problems);
    } catch (err) {
      result.problems.push(`${sourcePath}: session ${w.session_id} (${w.session_key}) not imported (${(err as Error).message})`);
    }
  }
  return result;
}
