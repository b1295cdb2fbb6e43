// Inserts transcript events; used by the store inside its own transactions.
import { newTimeOrderedId } from "./ids.js";
import type Database from "better-sqlite3";
import type { AppendResult, TranscriptEventInput } from "./types.js";

interface ChainState {
  lastSeq: number;
  lastEventId: string | null;
}

function isConstraint(err: unknown): boolean {
  return typeof (err as { code?: unknown }).code === "string" && (err as { code: string }).code.startsWith("SQLITE_CONSTRAINT");
}

/**
 * Keeps, per session, the last seq and event id in memory. That is sound only because the store
 * is the database's single writer; the cache is dropped whenever a transaction fails.
 */
export class TranscriptWriter {
  private readonly chains = new Map<string, ChainState>();
  private readonly q;

  constructor(db: Database.Database) {
    this.q = {
      exists: db.prepare<[string], { x: number }>("SELECT 1 AS x FROM sessions WHERE session_id = ?"),
      last: db.prepare<[string], { seq: number; event_json: string }>(
        "SELECT seq, event_json FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
      ),
      hasEvent: db.prepare<[string, string], { x: number }>(
        "SELECT 1 AS x FROM transcript_event_identities WHERE session_id = ? AND event_id = ?",
      ),
      byIdempotency: db.prepare<[string], { event_id: string; seq: number; parent_id: string | null }>(
        "SELECT event_id, seq, parent_id FROM transcript_event_identities WHERE message_idempotency_key = ?",
      ),
      insertEvent: db.prepare<[string, number, string, number]>(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
      ),
      insertIdentity: db.prepare<[string, string, number, string, number, string | null, string | null, number]>(
        `INSERT INTO transcript_event_identities
           (session_id, event_id, seq, event_type, has_parent, parent_id, message_idempotency_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /** Forget every cached chain (after a rollback). */
  reset(): void {
    this.chains.clear();
  }

  private chain(sessionId: string): ChainState {
    let st = this.chains.get(sessionId);
    if (st) return st;
    if (!this.q.exists.get(sessionId)) throw new Error(`unknown session id "${sessionId}"`);
    const last = this.q.last.get(sessionId);
    st = last ? { lastSeq: last.seq, lastEventId: (JSON.parse(last.event_json) as { id: string }).id } : { lastSeq: 0, lastEventId: null };
    this.chains.set(sessionId, st);
    return st;
  }

  /** True when the session has an event with this id. */
  hasEvent(sessionId: string, eventId: string): boolean {
    return this.q.hasEvent.get(sessionId, eventId) !== undefined;
  }

  /** Inserts events in order; must run inside a transaction. See `SessionStore.appendEvents`. */
  insert(sessionId: string, events: readonly TranscriptEventInput[], now: number): AppendResult[] {
    const st = this.chain(sessionId);
    const nowIso = new Date(now).toISOString();
    const results: AppendResult[] = [];
    for (const input of events) {
      const { type, id: givenId, parentId: givenParent, timestamp, idempotencyKey, ...rest } = input;
      if (typeof type !== "string" || type === "") {
        throw new Error(`transcript event for session "${sessionId}" has no type`);
      }
      if (idempotencyKey !== undefined) {
        const dup = this.q.byIdempotency.get(idempotencyKey);
        if (dup) {
          results.push({ id: dup.event_id, seq: dup.seq, parentId: dup.parent_id, duplicate: true });
          continue;
        }
      }
      const seq = st.lastSeq + 1;
      const id = givenId ?? newTimeOrderedId();
      if (typeof id !== "string" || id === "") throw new Error(`transcript event id must be a non-empty string`);
      let parentId: string | null = null;
      let json: string;
      const ts = timestamp ?? nowIso;
      if (type === "session") {
        if (seq !== 1) throw new Error(`session "${sessionId}" already has a header; a "session" event must come first`);
        json = JSON.stringify({ type, id, timestamp: ts, ...rest });
      } else {
        if (seq === 1) throw new Error(`session "${sessionId}" has no "session" header event`);
        parentId = givenParent === undefined ? st.lastEventId : givenParent;
        if (parentId !== null && parentId !== st.lastEventId && !this.hasEvent(sessionId, parentId)) {
          throw new Error(`parentId "${parentId}" of event "${id}" is not an event of session "${sessionId}"`);
        }
        json = JSON.stringify({ type, id, parentId, timestamp: ts, ...rest });
      }
      try {
        this.q.insertIdentity.run(sessionId, id, seq, type, parentId === null ? 0 : 1, parentId, idempotencyKey ?? null, now);
      } catch (err) {
        if (isConstraint(err)) throw new Error(`event id "${id}" already exists in session "${sessionId}"`);
        throw err;
      }
      this.q.insertEvent.run(sessionId, seq, json, now);
      st.lastSeq = seq;
      st.lastEventId = id;
      results.push({ id, seq, parentId, duplicate: false });
    }
    return results;
  }
}
