// The parsed transcript of the sessions that ran lately, so a turn reads (and parses) only the
// events appended since the previous one instead of the whole history. The transcript is
// append-only, but the database may change under the cache when this process does not hold it:
// another process (doctor --fix, a restore from a backup, a second gateway after this one closed
// its store) can write it between two turns. Every read therefore checks, in the same statement
// that fetches the new events, that the database still holds the cached prefix (the event at the
// cached last seq has the cached id, and as many events lie up to it); if not, the session is
// read again whole. Once a session was compacted, only the part the model still sees is kept:
// the events from the last compaction's first kept event (or the compaction entry, if earlier) on;
// a long session costs the memory of its live context, not of its whole history.
import type { SessionReader, StoredEvent } from "../../sessions/index.js";
import { COMPACTION_EVENT, liveBoundary } from "./history.js";

interface Cached {
  lastSeq: number;
  /** Events before `events[0]` that were dropped (already compacted away). */
  dropped: number;
  events: StoredEvent[];
}

/**
 * Drops the events before the live part `liveEvents` reads: its first live event, or the
 * compaction entry (which carries the summary) if that is earlier.
 */
function dropCompacted(cached: Cached): void {
  const boundary = liveBoundary(cached.events);
  if (!boundary) return;
  const from = Math.min(boundary.from, boundary.compaction.seq);
  const first = cached.events.findIndex((e) => e.seq >= from);
  if (first <= 0) return;
  cached.events = cached.events.slice(first);
  cached.dropped += first;
}

/** Default number of sessions whose transcripts are kept in memory (least recently used go first). */
export const DEFAULT_CACHED_SESSIONS = 128;

export class SessionEventCache {
  private readonly sessions = new Map<string, Cached>();

  constructor(private readonly capacity = DEFAULT_CACHED_SESSIONS) {}

  /**
   * The events of `sessionId` in order, as `store` holds them now: all of them, or, once the
   * session was compacted, those from the last compaction's first kept event (or the compaction
   * entry, if earlier) on, which is all `compactedHistory` reads. Reads only the events after the
   * last one seen when the cached ones are still there; the whole transcript otherwise. The array
   * is shared with later calls: callers must not change it or its events.
   */
  read(store: SessionReader, sessionId: string): readonly StoredEvent[] {
    const key = `${store.path}\u0000${sessionId}`;
    let cached = this.sessions.get(key);
    if (cached) this.sessions.delete(key);
    else cached = { lastSeq: 0, dropped: 0, events: [] };
    this.sessions.set(key, cached);
    if (this.sessions.size > this.capacity) this.sessions.delete(this.sessions.keys().next().value as string);
    const { events: fresh, priorCount, anchor } = store.readEventsAfter(sessionId, cached.lastSeq);
    const last = cached.events[cached.events.length - 1];
    const intact =
      cached.lastSeq === 0 ? priorCount === 0 : anchor?.event.id === last?.event.id && priorCount === cached.dropped + cached.events.length;
    if (!intact) {
      cached.events = store.readEvents(sessionId);
      cached.dropped = 0;
      cached.lastSeq = cached.events[cached.events.length - 1]?.seq ?? 0;
      dropCompacted(cached);
      return cached.events;
    }
    for (const e of fresh) cached.events.push(e);
    if (fresh.length > 0) cached.lastSeq = fresh[fresh.length - 1]!.seq;
    // Only a new compaction entry moves the boundary.
    if (fresh.some((e) => e.event.type === COMPACTION_EVENT)) dropCompacted(cached);
    return cached.events;
  }

  /** Forgets every cached transcript (e.g. after a store was closed and reopened). */
  clear(): void {
    this.sessions.clear();
  }
}
