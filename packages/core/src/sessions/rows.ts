// Row <-> object mapping shared by the reader and the writer.
import type { SessionEntry, SessionRecord, TranscriptEvent } from "./types.js";

export interface SessionRow {
  session_id: string;
  session_key: string;
  created_at: number;
  updated_at: number;
  started_at: number;
  ended_at: number | null;
  status: string;
  chat_type: string | null;
  channel: string | null;
  display_name: string | null;
  model_provider: string | null;
  model: string | null;
  parent_session_key: string | null;
  spawned_by: string | null;
  previous_session_id: string | null;
  start_reason: string | null;
}

export function toSessionRecord(row: SessionRow): SessionRecord {
  const rec: SessionRecord = {
    sessionId: row.session_id,
    sessionKey: row.session_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    status: row.status,
  };
  if (row.ended_at !== null) rec.endedAt = row.ended_at;
  if (row.chat_type !== null) rec.chatType = row.chat_type;
  if (row.channel !== null) rec.channel = row.channel;
  if (row.display_name !== null) rec.displayName = row.display_name;
  if (row.model_provider !== null) rec.modelProvider = row.model_provider;
  if (row.model !== null) rec.model = row.model;
  if (row.parent_session_key !== null) rec.parentSessionKey = row.parent_session_key;
  if (row.spawned_by !== null) rec.spawnedBy = row.spawned_by;
  if (row.previous_session_id !== null) rec.previousSessionId = row.previous_session_id;
  if (row.start_reason !== null) rec.startReason = row.start_reason;
  return rec;
}

export function parseEntry(json: string): SessionEntry {
  return JSON.parse(json) as SessionEntry;
}

export function parseEvent(json: string): TranscriptEvent {
  return JSON.parse(json) as TranscriptEvent;
}

/** Session keys are compared lowercased and trimmed everywhere. */
export function normalizeStoreKey(key: string): string {
  return key.trim().toLowerCase();
}
