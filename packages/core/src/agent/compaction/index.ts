// Compaction: context windows, token counts, the summary entry and the memory flush.
export { Compactor, type CompactionOutcome, type SessionContext } from "./compactor.js";
export { DEFAULT_CONTEXT_WINDOW, KNOWN_CONTEXT_WINDOWS, knownContextWindow, resolveContextWindow } from "./context-window.js";
export { findCut, eventTokens } from "./cut.js";
export {
  COMPACTION_EVENT,
  compactedHistory,
  latestCompaction,
  liveEvents,
  type CompactionEntry,
  type CompactionReason,
} from "./history.js";
export { flushedThisCycle, memoryFlushPrompt } from "./memory-flush.js";
export { compactionLimits, type CompactionLimits } from "./settings.js";
export { SUMMARY_INSTRUCTIONS } from "./summarize.js";
export { estimatePromptTokens, estimateTextTokens, TokenCalibration } from "./tokens.js";
