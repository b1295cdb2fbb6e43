/**
 * @openclaw/delivery: the delivery engine a host (the gateway, the conformance suite) drives to get
 * a reply to a chat: the per-chat send budget, the live preview, native streams, the progress draft, exactly-once
 * final delivery, one strategy per delivery kind, and config warnings for streaming modes a channel
 * cannot honour. Channels build against `@openclaw/plugin-sdk` alone; this package is for hosts.
 */
export { systemClock, type DeliveryClock } from "./clock.js";
export {
  SendBudget,
  sendBudgetFor,
  SendRetriesExhaustedError,
  type BudgetDropReason,
  type BudgetResult,
  type BudgetRunOptions,
  type SendBudgetOptions,
} from "./send-budget.js";
export type { ReplyQuota } from "./reply-quota.js";
export { PreviewController, type FinalizeResult, type PreviewControllerOptions } from "./preview-controller.js";
export { ProgressDraft, type ProgressDraftOptions } from "./progress-draft.js";
export { NativeStreamController, type NativeFinalResult, type NativeStreamControllerOptions } from "./native-stream.js";
export {
  deliverFinal,
  deliveryBegin,
  sentIds,
  InMemoryDeliveryLedger,
  type DeliverFinalOptions,
  type DeliverFinalResult,
  type DeliveryBegin,
  type DeliveryInfo,
  type DeliveryLedger,
} from "./ledger.js";
export { sendParts, type SendPartsOptions } from "./final-send.js";
export {
  createBlockCoalescer,
  joinerForBreakPreference,
  type BlockCoalescer,
  type BlockCoalescerOptions,
  type CoalescerTimers,
  type EnqueueOptions,
} from "./blocks/coalescer.js";
export { SILENT_REPLY_TOKEN, isSilentReply, createSilentReplyGuard, type SilentReplyGuard } from "./silent-reply.js";
export { createDeliveryStrategy } from "./strategies/create.js";
export type {
  BlockDeliverySettings,
  DeliveryKind,
  DeliveryOutcome,
  DeliveryPlanKind,
  DeliveryStrategy,
  DeliveryStrategyOptions,
  PreviewPlanMode,
  ProgressDraftSettings,
  ReplyEvent,
} from "./strategies/types.js";
