import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { UserError } from "../config/index.js";
import { normalizeAgentId } from "../agents/index.js";
import { DatabaseCorruptError, damageOf, isCorruptionError, sessionDatabase } from "../databases/index.js";
import { agentStorePath } from "./paths.js";
import { normalizeStoreKey, parseEntry, parseEvent, toSessionRecord, type SessionRow } from "./rows.js";
import { assertSchemaNotNewer, readSchemaVersion, SCHEMA_VERSION } from "./schema.js";
import type { SessionEntry, SessionRecord, SessionSummary, StoredEvent } from "./types.js";

type Db = Database.Database;

/** Read access to one agent's session database; the writer `SessionStore` extends it. */
export interface SessionReader {
  readonly agentId: string;
  /** Absolute path of the database file. */
  readonly path: string;
  /** The entry of a session key (lowercased before lookup), or undefined. */
  getEntry(key: string): SessionEntry | undefined;
  /** Every key with its current session, most recently updated first. */
  listSessions(): SessionSummary[];
  /** One session row (current or replaced by a reset). */
  getSession(sessionId: string): SessionRecord | undefined;
  /** Every session ever minted for a key, oldest first (resets keep the old rows). */
  sessionHistory(key: string): SessionRecord[];
  /**
   * The last `n` events of a session in transcript order (oldest of them first); with
   * `beforeSeq`, the last `n` of those whose `seq` is below it (a page further back).
   */
  readTail(sessionId: string, n: number, options?: { beforeSeq?: number }): StoredEvent[];
  /**
   * Ids of the sessions among `sessionIds` with a message whose content contains `text`
   * (case-insensitive for ASCII; matched in the content's JSON form), each with the first
   * matching event's seq.
   */
  findText(sessionIds: readonly string[], text: string): Map<string, number>;
  /** Events with `seq > afterSeq` (default 0) in order, at most `limit` (default: all). */
  readEvents(sessionId: string, options?: { afterSeq?: number; limit?: number }): StoredEvent[];
  /**
   * Events with `seq > afterSeq` in order, read in the same statement (one snapshot) as what the
   * database holds up to `afterSeq`: `priorCount` events, the last of them `anchor` (the event at
   * `afterSeq`, undefined when there is none). A cache of a session's first `afterSeq` events is
   * still true when `anchor` has its last event's id and `priorCount` its length: the transcript
   * is append-only, so anything else (a database restored or rewritten by another process while
   * this one had it closed) shows as a missing anchor, another id or another count.
   */
  readEventsAfter(sessionId: string, afterSeq: number): { events: StoredEvent[]; priorCount: number; anchor?: StoredEvent };
  /** Number of events in a session, the `session` header included; 0 for an unknown id. */
  countEvents(sessionId: string): number;
  /** Closes the connection; further calls throw. Idempotent. */
  close(): void;
}

/** Shared read queries over an open connection. */
export class SqliteSessionReader implements SessionReader {
  readonly agentId: string;
  readonly path: string;
  protected readonly db: Db;
  private readonly q;

  constructor(db: Db, agentId: string, path: string) {
    this.db = db;
    this.agentId = agentId;
    this.path = path;
    this.q = {
      entry: db.prepare<[string], { entry_json: string }>("SELECT entry_json FROM session_entries WHERE session_key = ?"),
      list: db.prepare<[], { session_key: string; session_id: string; entry_json: string; updated_at: number; events: number | null }>(
        `SELECT e.session_key, e.session_id, e.entry_json, e.updated_at,
                (SELECT MAX(t.seq) FROM transcript_events t WHERE t.session_id = e.session_id) AS events
           FROM session_entries e ORDER BY e.updated_at DESC, e.session_key`,
      ),
      session: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE session_id = ?"),
      history: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE session_key = ? ORDER BY created_at, rowid"),
      tail: db.prepare<[string, number], { seq: number; event_json: string }>(
        "SELECT seq, event_json FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
      ),
      tailBefore: db.prepare<[string, number, number], { seq: number; event_json: string }>(
        "SELECT seq, event_json FROM transcript_events WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
      ),
      find: db.prepare<[string, string], { seq: number }>(
        `SELECT seq FROM transcript_events WHERE session_id = ? AND json_extract(event_json, '$.type') = 'message'
           AND CAST(json_extract(event_json, '$.message.content') AS TEXT) LIKE ? ESCAPE '\\' ORDER BY seq LIMIT 1`,
      ),
      range: db.prepare<[string, number, number], { seq: number; event_json: string }>(
        "SELECT seq, event_json FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      ),
      after: db.prepare<[{ id: string; after: number }], { seq: number; event_json: string; prior: number }>(
        `SELECT seq, event_json, (SELECT COUNT(*) FROM transcript_events WHERE session_id = @id AND seq <= @after) AS prior
           FROM transcript_events WHERE session_id = @id AND seq >= @after ORDER BY seq`,
      ),
      countUpTo: db.prepare<[string, number], { n: number }>(
        "SELECT COUNT(*) AS n FROM transcript_events WHERE session_id = ? AND seq <= ?",
      ),
      count: db.prepare<[string], { n: number | null }>("SELECT MAX(seq) AS n FROM transcript_events WHERE session_id = ?"),
    };
  }

  getEntry(key: string): SessionEntry | undefined {
    const row = this.q.entry.get(normalizeStoreKey(key));
    return row ? parseEntry(row.entry_json) : undefined;
  }

  listSessions(): SessionSummary[] {
    return this.q.list.all().map((r) => {
      const entry = parseEntry(r.entry_json);
      const summary: SessionSummary = {
        key: r.session_key,
        sessionId: r.session_id,
        entry,
        updatedAt: r.updated_at,
        eventCount: r.events ?? 0,
      };
      if (typeof entry.chatType === "string") summary.chatType = entry.chatType;
      return summary;
    });
  }

  getSession(sessionId: string): SessionRecord | undefined {
    const row = this.q.session.get(sessionId);
    return row ? toSessionRecord(row) : undefined;
  }

  sessionHistory(key: string): SessionRecord[] {
    return this.q.history.all(normalizeStoreKey(key)).map(toSessionRecord);
  }

  readTail(sessionId: string, n: number, options: { beforeSeq?: number } = {}): StoredEvent[] {
    if (!(n > 0)) return [];
    const rows =
      options.beforeSeq === undefined
        ? this.q.tail.all(sessionId, Math.floor(n))
        : this.q.tailBefore.all(sessionId, options.beforeSeq, Math.floor(n));
    const out: StoredEvent[] = new Array(rows.length);
    for (let i = 0, j = rows.length - 1; j >= 0; i++, j--) {
      const r = rows[j]!;
      out[i] = { seq: r.seq, event: parseEvent(r.event_json) };
    }
    return out;
  }

  findText(sessionIds: readonly string[], text: string): Map<string, number> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const found = new Map<string, number>();
    for (const id of sessionIds) {
      const row = this.q.find.get(id, pattern);
      if (row) found.set(id, row.seq);
    }
    return found;
  }

  readEvents(sessionId: string, options: { afterSeq?: number; limit?: number } = {}): StoredEvent[] {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    return this.q.range.all(sessionId, options.afterSeq ?? 0, limit).map((r) => ({ seq: r.seq, event: parseEvent(r.event_json) }));
  }

  readEventsAfter(sessionId: string, afterSeq: number): { events: StoredEvent[]; priorCount: number; anchor?: StoredEvent } {
    const rows = this.q.after.all({ id: sessionId, after: afterSeq });
    const events: StoredEvent[] = [];
    let anchor: StoredEvent | undefined;
    for (const r of rows) {
      const e = { seq: r.seq, event: parseEvent(r.event_json) };
      if (r.seq === afterSeq) anchor = e;
      else events.push(e);
    }
    // Without rows the subquery has nowhere to show: count apart (rare: an empty or vanished session).
    const priorCount = rows.length > 0 ? rows[0]!.prior : afterSeq > 0 ? this.countUpTo(sessionId, afterSeq) : 0;
    return anchor ? { events, priorCount, anchor } : { events, priorCount };
  }

  private countUpTo(sessionId: string, seq: number): number {
    return this.q.countUpTo.get(sessionId, seq)?.n ?? 0;
  }

  countEvents(sessionId: string): number {
    return this.q.count.get(sessionId)?.n ?? 0;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Opens an agent's session database read-only, for processes other than the gateway (the CLI,
 * doctor's inspection). Returns null when the database does not exist yet or holds no schema
 * ("no sessions yet"). Throws a UserError when the file was written by a newer openclaw, or is
 * older than this code and not yet migrated (the gateway or `openclaw doctor --fix` migrates it),
 * and a {@link DatabaseCorruptError} when the file is damaged.
 * Safe while the gateway writes: WAL lets readers see the last committed state.
 */
export function openAgentStoreReadOnly(options: { stateDir: string; agentId?: string }): SessionReader | null {
  const agentId = normalizeAgentId(options.agentId);
  const file = agentStorePath(options.stateDir, agentId);
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    assertSchemaNotNewer(db, file);
    const version = readSchemaVersion(db);
    if (version === 0) {
      db.close();
      return null;
    }
    if (version < SCHEMA_VERSION) {
      throw new UserError(
        `${file} has session schema version ${version}; this openclaw uses ${SCHEMA_VERSION}. ` +
          "Start the gateway or run `openclaw doctor --fix` once to migrate it.",
      );
    }
    return new SqliteSessionReader(db, agentId, file);
  } catch (err) {
    if (db.open) db.close();
    if (isCorruptionError(err)) {
      throw new DatabaseCorruptError([damageOf(options.stateDir, sessionDatabase(options.stateDir, agentId), (err as Error).message)]);
    }
    throw err;
  }
}
