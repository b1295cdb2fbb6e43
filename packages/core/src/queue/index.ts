// Public surface of the queue concern: session lanes, the global run cap, queue modes and `/queue`.
export { MessageQueue } from "./message-queue.js";
export { parseQueueCommand, isQueueCommand, parseDurationMs, QUEUE_COMMAND_USAGE, type QueueCommand } from "./command.js";
export {
  resolveQueueSettings,
  resolveMaxConcurrent,
  normalizeQueueMode,
  normalizeDropPolicy,
  describeQueueSettings,
  DEFAULT_QUEUE_MODE,
  DEFAULT_DEBOUNCE_MS,
  DEFAULT_QUEUE_CAP,
  DEFAULT_DROP_POLICY,
} from "./settings.js";
export { Semaphore } from "./semaphore.js";
export type {
  AbortSummary,
  CancelReason,
  MessageQueueOptions,
  PendingResult,
  QueueConfigSource,
  QueueDropPolicy,
  QueueLogger,
  QueueMessage,
  QueueMode,
  QueueModeInput,
  QueueOverride,
  QueueOverrideStore,
  QueueSettings,
  QueueTimers,
  SessionQueueState,
  SubmitOutcome,
} from "./types.js";
