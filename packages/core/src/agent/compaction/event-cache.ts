// The parsed transcript of the sessions that ran lately, so a turn reads (and parses) only the
// events appended since the previous one instead of the whole history. Sound because the
// transcript is append-only (seq grows, rows are never changed or deleted) and this process is
// the store's single writer.
import type { SessionStore, StoredEvent } from "../../sessions/index.js";

interface Cached {
  lastSeq: number;
  events: StoredEvent[];
}

/** Default number of sessions whose transcripts are kept in memory (least recently used go first). */
export const DEFAULT_CACHED_SESSIONS = 128;

export class SessionEventCache {
  private readonly sessions = new Map<string, Cached>();

  constructor(private readonly capacity = DEFAULT_CACHED_SESSIONS) {}

  /**
   * Every event of `sessionId` in order, read from `store` after the last one seen. The array is
   * shared with later calls: callers must not change it or its events.
   */
  read(store: SessionStore, sessionId: string): readonly StoredEvent[] {
    const key = `${store.path}\u0000${sessionId}`;
    let cached = this.sessions.get(key);
    if (cached) this.sessions.delete(key);
    else cached = { lastSeq: 0, events: [] };
    this.sessions.set(key, cached);
    if (this.sessions.size > this.capacity) this.sessions.delete(this.sessions.keys().next().value as string);
    const fresh = store.readEvents(sessionId, { afterSeq: cached.lastSeq });
    for (const e of fresh) cached.events.push(e);
    if (fresh.length > 0) cached.lastSeq = fresh[fresh.length - 1]!.seq;
    return cached.events;
  }

  /** Forgets every cached transcript (e.g. after a store was closed and reopened). */
  clear(): void {
    this.sessions.clear();
  }
}
