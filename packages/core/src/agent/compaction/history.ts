// The compaction entry in a transcript and the history the model sees after one: the summary,
// then the events from the entry's first kept event on.
import type { ChatMessage } from "../../providers/index.js";
import type { StoredEvent, TranscriptEventInput } from "../../sessions/index.js";
import { HistoryBuilder } from "../transcript.js";

/** The transcript entry type of a compaction (the pi session format). */
export const COMPACTION_EVENT = "compaction";

/** Why a compaction ran. */
export type CompactionReason = "threshold" | "overflow" | "manual";

/** What a compaction entry holds (besides `type`, `id`, `parentId`, `timestamp`). */
export interface CompactionEntry {
  /** The model's summary of everything before `firstKeptEntryId` (including any earlier summary). */
  summary: string;
  /** The id of the first event the model still sees word for word. */
  firstKeptEntryId: string;
  /** Estimated prompt tokens before the compaction. */
  tokensBefore: number;
  details: {
    reason: CompactionReason;
    /** Estimated prompt tokens right after it. */
    tokensAfter: number;
    /** Messages newly folded into the summary. */
    summarizedMessages: number;
    /** The model that wrote the summary. */
    model?: string;
  };
}

/** The transcript event for a compaction. */
export function compactionEvent(entry: CompactionEntry): TranscriptEventInput {
  return { type: COMPACTION_EVENT, ...entry };
}

/** The last compaction entry of a transcript, with its position. */
export function latestCompaction(events: readonly StoredEvent[]): { seq: number; entry: CompactionEntry } | undefined {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const { seq, event } = events[i]!;
    if (event.type === COMPACTION_EVENT && typeof event.summary === "string" && typeof event.firstKeptEntryId === "string") {
      return { seq, entry: event as unknown as CompactionEntry };
    }
  }
  return undefined;
}

/**
 * The part of a transcript the model still sees word for word: every event from the last
 * compaction's first kept event on (all events when the session was never compacted), without
 * compaction entries; and that compaction's summary.
 */
export function liveEvents(events: readonly StoredEvent[]): { summary?: string; events: StoredEvent[] } {
  const boundary = liveBoundary(events);
  if (!boundary) return { events: events.filter((e) => e.event.type !== COMPACTION_EVENT) };
  const { compaction, from } = boundary;
  return { summary: compaction.entry.summary, events: events.filter((e) => e.seq >= from && e.event.type !== COMPACTION_EVENT) };
}

/**
 * Where the live part of a compacted transcript starts: the last compaction, and the seq from
 * which the model sees events word for word (its first kept event, else the event after it);
 * undefined when the session was never compacted.
 */
export function liveBoundary(
  events: readonly StoredEvent[],
): { compaction: { seq: number; entry: CompactionEntry }; from: number } | undefined {
  const compaction = latestCompaction(events);
  if (!compaction) return undefined;
  const kept = events.find((e) => e.event.id === compaction.entry.firstKeptEntryId);
  return { compaction, from: kept ? kept.seq : compaction.seq + 1 };
}

/** The user message that carries a compaction summary to the model. */
export function summaryMessage(summary: string): ChatMessage {
  return {
    role: "user",
    content: `[The earlier part of this conversation was compacted. Summary of it:]\n\n${summary.trim()}`,
  };
}

/** A conversation built from an events array, and how much of the array it has taken in. */
interface BuiltHistory {
  length: number;
  last: StoredEvent | undefined;
  summary: string | undefined;
  builder: HistoryBuilder;
}

/**
 * Conversations by the events array they were built from. The transcript cache hands every turn
 * of a session the same array, to which it only appends (anything else gives a new array), so a
 * turn converts only the events added since the previous one.
 */
const built = new WeakMap<readonly StoredEvent[], BuiltHistory>();

/** True when `events` is the array `memo` was built from with only events other than compaction entries appended since. */
function appendedOnly(events: readonly StoredEvent[], memo: BuiltHistory): boolean {
  if (events.length < memo.length || (memo.length > 0 && events[memo.length - 1] !== memo.last)) return false;
  for (let i = memo.length; i < events.length; i += 1) if (events[i]!.event.type === COMPACTION_EVENT) return false;
  return true;
}

/**
 * The conversation for the model: the last compaction's summary (if any), then the live events.
 * `events` is read as the transcript cache hands it out: an array only ever appended to.
 */
export function compactedHistory(events: readonly StoredEvent[]): ChatMessage[] {
  let memo = built.get(events);
  if (memo && appendedOnly(events, memo)) {
    for (let i = memo.length; i < events.length; i += 1) memo.builder.add(events[i]!.event);
  } else {
    const live = liveEvents(events);
    memo = { length: 0, last: undefined, summary: live.summary, builder: new HistoryBuilder() };
    for (const { event } of live.events) memo.builder.add(event);
    built.set(events, memo);
  }
  memo.length = events.length;
  memo.last = events[events.length - 1];
  const messages = memo.builder.messages();
  return memo.summary === undefined ? messages : [summaryMessage(memo.summary), ...messages];
}
