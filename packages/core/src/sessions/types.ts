/**
 * The per-key session record (the reference's `SessionEntry` JSON). Timestamps are milliseconds
 * since the epoch. Unknown fields (e.g. from a legacy sessions.json) are kept as they are.
 */
export interface SessionEntry {
  /** The current session id of this key; changes on every reset. */
  sessionId: string;
  sessionStartedAt: number;
  /** Last user interaction; system, heartbeat and cron turns do not move it. */
  lastInteractionAt?: number;
  updatedAt: number;
  archivedAt?: number;
  pinnedAt?: number;
  chatType?: string;
  channel?: string;
  provider?: string;
  displayName?: string;
  thinkingLevel?: string;
  verboseLevel?: string;
  reasoningLevel?: string;
  elevatedLevel?: string;
  sendPolicy?: string;
  providerOverride?: string;
  modelOverride?: string;
  authProfileOverride?: string;
  modelOverrideSource?: "auto" | "user";
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** The reference's field: the model's context window as it resolved it (kept as imported; not read). */
  contextTokens?: number;
  /** Tokens the last model call of the session used (prompt + reply, as the provider reported them); compaction reads it. */
  contextUsedTokens?: number;
  compactionCount?: number;
  memoryFlushAt?: number;
  lastRoute?: unknown;
  activeWriterRunId?: string;
  [field: string]: unknown;
}

/** A transcript entry as stored: the pi session format, one per row. */
export interface TranscriptEvent {
  /** `session` (the header, always first), `message`, `model_change`, `compaction`, `custom`, ... */
  type: string;
  id: string;
  /** The entry this one follows; null for a root (the header). Absent on the header. */
  parentId?: string | null;
  /** ISO 8601. */
  timestamp: string;
  [field: string]: unknown;
}

/** A transcript entry to append; the store fills in what is missing. */
export interface TranscriptEventInput {
  type: string;
  /** Default: a fresh UUID. Must be unique within the session. */
  id?: string;
  /**
   * Default (property absent): the id of the session's previous event, so appends form a chain.
   * `null` makes a root. A given id must already exist in the session (or earlier in the batch).
   */
  parentId?: string | null;
  /** Default: the append time, ISO 8601. */
  timestamp?: string;
  /**
   * Optional, unique across the whole database. Appending an event whose key is already stored
   * writes nothing and returns the stored event's id and seq with `duplicate: true`. Not stored
   * in the event JSON.
   */
  idempotencyKey?: string;
  [field: string]: unknown;
}

/** What `appendEvents` / `appendEvent` report per input event, in input order. */
export interface AppendResult {
  id: string;
  /** 1-based position in the session's transcript; dense and increasing. */
  seq: number;
  parentId: string | null;
  /** True when the idempotency key was already stored and nothing was written. */
  duplicate: boolean;
}

/** One stored transcript event with its position. */
export interface StoredEvent {
  seq: number;
  event: TranscriptEvent;
}

/** One row of the `sessions` table (every session ever minted, including reset ones). */
export interface SessionRecord {
  sessionId: string;
  sessionKey: string;
  createdAt: number;
  updatedAt: number;
  startedAt: number;
  endedAt?: number;
  /** `active`, or `ended` once a reset replaced it. */
  status: string;
  chatType?: string;
  channel?: string;
  displayName?: string;
  modelProvider?: string;
  model?: string;
  parentSessionKey?: string;
  spawnedBy?: string;
  /** The session this one replaced on reset. */
  previousSessionId?: string;
  /** Why it was minted: `initial`, `daily`, `idle`, a trigger such as `/new`, or `import`. */
  startReason?: string;
}

/** A session key with its current session, as listed by `listSessions()`. */
export interface SessionSummary {
  key: string;
  sessionId: string;
  entry: SessionEntry;
  updatedAt: number;
  chatType?: string;
  eventCount: number;
}

/** Facts about the conversation recorded when a session is minted or touched. */
export interface SessionOrigin {
  chatType?: string;
  channel?: string;
  displayName?: string;
  /** Workspace directory written into the `session` header. */
  cwd?: string;
  parentSessionKey?: string;
  spawnedBy?: string;
}
