// Public surface of the sessions concern: keys, reset policy, the per-agent SQLite store, the
// legacy JSON/JSONL importer. Other folders import from here only.
export { DEFAULT_AGENT_ID, isValidAgentId, normalizeAgentId } from "../agents/index.js";
export {
  buildSessionKey,
  mainSessionKey,
  normalizeKeyPart,
  DEFAULT_MAIN_KEY,
  DM_SCOPES,
  GROUP_SCOPES,
  type DmScope,
  type GroupScope,
  type SessionKeyInput,
} from "./keys.js";
export {
  parseSessionKey,
  sessionKind,
  isSubagentSessionKey,
  resetTypeForKey,
  type ParsedSessionKey,
  type SessionKind,
  type ResetType,
} from "./key-parse.js";
export { resolveLinkedPeerId, type IdentityLinks } from "./identity-links.js";
export {
  resolveSessionConfig,
  DEFAULT_RESET_TRIGGERS,
  type SessionConfig,
  type ResetPolicyConfig,
} from "./config.js";
export {
  resolveResetPolicy,
  evaluateFreshness,
  matchResetTrigger,
  mostRecentDailyBoundary,
  nextDailyBoundaryAfter,
  DEFAULT_IDLE_MINUTES,
  DEFAULT_RESET_AT_HOUR,
  type ResetPolicy,
  type Freshness,
  type FreshnessInput,
} from "./reset-policy.js";
export { agentStorePath, legacySessionsDir, AGENT_DB_FILE } from "./paths.js";
export { SCHEMA_VERSION } from "./schema.js";
export { openAgentStoreReadOnly, type SessionReader } from "./reader.js";
export {
  openAgentStore,
  type SessionStore,
  type SessionResolution,
  type GetOrCreateOptions,
  type ImportedSession,
  type OpenAgentStoreOptions,
} from "./store.js";
export { StoreLockedError } from "./writer-lock.js";
export {
  importLegacySessions,
  listAgentIdsWithLegacySessions,
  parseTranscriptLines,
  toMillis,
  type ParsedTranscript,
  type TranscriptLine,
  type LegacyImportOptions,
  type LegacyImportReport,
} from "./legacy-import.js";
export type {
  AppendResult,
  SessionEntry,
  SessionOrigin,
  SessionRecord,
  SessionSummary,
  StoredEvent,
  TranscriptEvent,
  TranscriptEventInput,
} from "./types.js";
