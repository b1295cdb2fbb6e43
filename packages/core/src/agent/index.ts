// Public surface of the agent concern: the loop, the runtime that runs turns, the prompt.
export { AgentRuntime, type AgentRuntimeOptions, type TurnRequest, type TurnResult } from "./runtime.js";
export { chatFailureNotice, RECENT_RUN_ERRORS, type RunErrorRecord } from "./run-errors.js";
export { runAgentLoop, type LoopOptions, type LoopRecord, type LoopResult, type SteeringText } from "./loop.js";
export { buildSystemPrompt, SILENT_REPLY_TOKEN, type PromptMode, type SystemPromptInput } from "./system-prompt.js";
export { historyFromEvents, recordedInbound, recordedTurnState, type RecordedInbound, type RecordedTurnState } from "./transcript.js";
export type { AgentEvent, RunStatus, Usage } from "./events.js";
export type { TurnTrigger } from "./trigger.js";
export {
  COMPACTION_EVENT,
  DEFAULT_CONTEXT_WINDOW,
  resolveContextWindow,
  type CompactionEntry,
  type CompactionOutcome,
  type CompactionReason,
} from "./compaction/index.js";
export type { SessionModel } from "./session-model.js";
export type { SkillCommand } from "./skill-snapshots.js";
