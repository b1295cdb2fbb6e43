// The interface of a delivery strategy, what it is built from, and what it reports.
import type { BreakPreference, ChannelOutbound, ChunkMode, OutboundTarget } from "@openclaw/plugin-sdk";
import type { DeliveryClock } from "../clock.js";
import type { DeliveryLedger } from "../ledger.js";
import type { SendBudget } from "../send-budget.js";

/**
 * The events of one agent run that shape its delivery, in the order the run reports them. A host
 * passes its run events as they are; members it reports that delivery ignores are listed last.
 */
export type ReplyEvent =
  /** The run that answers the message started (typing starts here). */
  | { type: "run_start" }
  | { type: "text_delta"; text: string }
  /** A stretch of assistant text ended (before a tool call, or at the end of a message). */
  | { type: "text_end" }
  /** One assistant message is complete. */
  | { type: "message_end" }
  | { type: "tool_start"; callId: string; name: string; args: unknown }
  | { type: "tool_end"; callId: string; isError: boolean }
  /** The run failed; its final text (if any) is the failure notice. */
  | { type: "error" }
  /** The reply to deliver; `silent` when the agent answered NO_REPLY (nothing is sent). */
  | { type: "final"; text: string; silent: boolean }
  /** A status other than "ok" ends a reply that got no final. */
  | { type: "run_end"; status: string }
  /** Reported by a run, not used for delivery. */
  | { type: "model" | "steer" | "compaction" };

/** The preview modes of a `preview` plan ("quiet" behaves as "partial"; "progress" is a status draft). */
export type PreviewPlanMode = "partial" | "block" | "progress" | "quiet";

/** How one reply reaches its chat; the host's delivery planner decides (extra fields are ignored). */
export type DeliveryPlanKind = { kind: "blocks" } | { kind: "preview"; mode: PreviewPlanMode } | { kind: "native" } | { kind: "final" };

/** Which strategy delivered a reply. */
export type DeliveryKind = "blocks" | "preview" | "progress" | "native" | "final";

/** Block-reply sizes and merging, resolved by the host from `agents.defaults` and `streaming.block`. */
export interface BlockDeliverySettings {
  /** The chunker emits no block below this many characters unless forced. */
  minChars: number;
  /** The chunker's largest block (already clamped to the text limit). */
  maxChars: number;
  breakPreference: BreakPreference;
  /** Merging of small blocks before they are sent. */
  coalesce: { minChars: number; maxChars: number; idleMs: number };
  /** When blocks are force-flushed: at each text end, or only at the message end. */
  break: "text_end" | "message_end";
}

/** `streaming.progress` of a channel, for the status draft of `mode: "progress"`. */
export interface ProgressDraftSettings {
  /** Heading line (default "Working…"; `false` for none). */
  label?: string | false;
  /** Headings to pick from, one per reply (picked with `random`), instead of `label`. */
  labels?: string[];
  maxLines?: number;
  maxLineChars?: number;
  /** Show running tools as lines (default true). */
  toolProgress?: boolean;
}

/** Everything a strategy needs to deliver one reply to one chat. */
export interface DeliveryStrategyOptions {
  /** The account's sending side. */
  outbound: ChannelOutbound;
  /** The account's send budget (shared by every reply of the account). */
  budget: SendBudget;
  /** Where finals and blocks are recorded, so none is sent twice (the host's durable one). */
  ledger: DeliveryLedger;
  /** The chat; `replyToMessageId` is the message quoted per `replyToMode`. */
  target: OutboundTarget;
  /** The inbound message this reply answers: every call carries it as `SendOptions.inReplyTo`. */
  inReplyTo?: string;
  /** Budget key of the chat. */
  chatKey: string;
  /** Stable per reply (idempotency keys and ledger keys derive from it). */
  replyKey: string;
  channel: string;
  accountId: string;
  /** Longest message (the account's `textChunkLimit`, at most the platform's). */
  textLimit: number;
  /** Longest text an edited message may hold. */
  editLimit: number;
  /** Shortest pause between two edits or stream updates of one message, in ms. */
  minEditIntervalMs: number;
  chunkMode: ChunkMode;
  /** The channel's native stream semantics (`capabilities.nativeStream`; default "replace"). */
  nativeStream?: "replace" | "append";
  /** Longest text one native stream holds (`capabilities.nativeStreamLimit`; default `textLimit`). */
  nativeStreamLimit?: number;
  /**
   * The typing indicator lasts until cleared (`capabilities.typingPersists`): shown once per reply,
   * never renewed, and removed with `clearTyping` when the reply is done.
   */
  typingPersists?: boolean;
  /** `capabilities.finalEditAfterPreview`: every preview message ends with a final edit (default false). */
  finalEditAfterPreview?: boolean;
  /** `streaming.preview.chunk.maxChars` for the rotating "block" preview (default 800). */
  previewChunkMax?: number;
  /** `streaming.preview.chunk.minChars`: the first preview waits for this many characters. */
  previewMinChars?: number;
  /** `streaming.preview.toolProgress` (default true): show running tools under the preview. */
  previewToolProgress?: boolean;
  /** `streaming.progress` (mode "progress"). */
  progress?: ProgressDraftSettings;
  /** Block-reply sizes (plan "blocks"). */
  block: BlockDeliverySettings;
  /** `replyToMode`: which messages quote the user's message (default "off"). */
  replyToMode?: "off" | "first" | "all" | "batched";
  /** The channel can show "typing…" (`capabilities.typing`). */
  typing: boolean;
  /**
   * `agents.defaults.typingMode`: "instant" (typing from the start of the run; the default),
   * "thinking" (the same: until text streams), "message" (only while the reply is written),
   * "never".
   */
  typingMode?: "never" | "instant" | "thinking" | "message";
  /** `agents.defaults.humanDelay`: a pause before each block reply after the first, in ms. */
  humanDelay?: { minMs: number; maxMs: number };
  /**
   * This reply's signal (fires when the host gives up on deliveries). One per reply: the delivery
   * helpers put listeners on it that must go away with the reply.
   */
  signal: AbortSignal;
  log: { warn(message: string): void };
  /** Time source for pacing, typing and human delays (default the system clock). */
  clock?: DeliveryClock;
  /** Randomness in [0, 1) for human-delay jitter and progress labels (default `Math.random`). */
  random?: () => number;
}

/** What a strategy did for its reply, from `DeliveryStrategy.finish`. */
export interface DeliveryOutcome {
  kind: DeliveryKind;
  /**
   * "delivered": the final was handled (sent, or empty); "silent": the agent answered NO_REPLY;
   * "aborted": the reply ended without a final (run failed or cancelled, message answered by another
   * run); "failed": part of the reply could not be delivered (see `errors`).
   */
  status: "delivered" | "silent" | "aborted" | "failed";
  /** The messages that hold the reply and are still in the chat, in the order they were sent. */
  messageIds: string[];
  /** Successful platform calls of this reply. */
  counts: { sends: number; edits: number; deletes: number; typing: number; streamUpdates: number };
  /** Each fallback taken, as a sentence (e.g. "the native stream could not be opened: …"). */
  fallbacks: string[];
  /** Each failure that cost part of the delivery, as a sentence. */
  errors: string[];
}

/** Delivers one reply: fed the run's events in order, then finished once. */
export interface DeliveryStrategy {
  readonly kind: DeliveryKind;
  /** Called with every event of the run that answers the message, in order; never throws. */
  onEvent(event: ReplyEvent): void;
  /**
   * Called once, when no more events will come (the run ended, or the message was answered by
   * another run, cancelled, or was a command): stops typing and anything pending when no final
   * came, waits for every send, and reports what was delivered. Never rejects.
   */
  finish(): Promise<DeliveryOutcome>;
}
