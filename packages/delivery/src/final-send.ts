// Sending prepared parts of a reply through the send budget, exactly once (the ledger): what every
// final, block, fallback and host-made message (pairing codes, command answers) comes down to.
import type { ChannelOutbound, OutboundTarget, SendPriority } from "@openclaw/plugin-sdk";
import { deliverFinal, type DeliverFinalResult, type DeliveryInfo, type DeliveryLedger } from "./ledger.js";
import type { BudgetDropReason, SendBudget } from "./send-budget.js";

/** A part the send budget did not send: the run was aborted, or (blocks) no reply was left in the quota. */
export class SendDroppedError extends Error {
  constructor(
    message: string,
    readonly reason: BudgetDropReason,
  ) {
    super(message);
    this.name = "SendDroppedError";
  }
}

/** Arguments of `sendParts`. */
export interface SendPartsOptions {
  outbound: ChannelOutbound;
  /** The account's send budget. */
  budget: SendBudget;
  /** The budget key of the chat. */
  chatKey: string;
  /**
   * Where the parts go. A function is called once per part, right before it is sent (a strategy
   * quotes only its first message, per `replyToMode`).
   */
  target: OutboundTarget | (() => OutboundTarget);
  /** The parts, produced the same way on every attempt (e.g. `chunkText` of the text). */
  chunks: readonly string[];
  /** Ledger key, stable per reply part across retries and restarts; part i is sent as `<key>:<i>`. */
  key: string;
  ledger: DeliveryLedger;
  /** Default "final"; blocks pass "block". */
  priority?: Extract<SendPriority, "final" | "block">;
  /** Default "markdown". */
  format?: "markdown" | "plain";
  /** Stops waiting sends; an aborted part rejects the delivery. */
  signal: AbortSignal;
  /** The inbound message the parts answer (`SendOptions.inReplyTo`). */
  inReplyTo?: string;
  /** Extra details stored with the delivery (channel, account, target) so a restart can finish it. */
  info?: Omit<DeliveryInfo, "chunks">;
}

/**
 * Sends `chunks` in order, each through the budget (waiting for tokens, honouring 429s, retrying
 * network and 5xx failures), recorded in the ledger so no part is ever sent twice. Rejects with the
 * send's error when a part fails for good, or when `signal` fires before a part could leave.
 */
export async function sendParts(options: SendPartsOptions): Promise<DeliverFinalResult> {
  const { outbound, budget, chatKey, key, signal } = options;
  const priority = options.priority ?? "final";
  const format = options.format ?? "markdown";
  const targetOf = typeof options.target === "function" ? options.target : () => options.target as OutboundTarget;
  return deliverFinal({
    ledger: options.ledger,
    key,
    chunks: options.chunks,
    ...(options.info !== undefined || options.inReplyTo !== undefined
      ? { info: { ...options.info, ...(options.inReplyTo !== undefined ? { inReplyTo: options.inReplyTo } : {}) } }
      : {}),
    send: async (chunk, index) => {
      const target = targetOf();
      const sendOptions = {
        signal,
        priority,
        format,
        idempotencyKey: `${key}:${index}`,
        ...(options.inReplyTo !== undefined ? { inReplyTo: options.inReplyTo } : {}),
      };
      const result = await budget.run(chatKey, priority, () => outbound.sendText(target, chunk, sendOptions), {
        signal,
        ...(options.inReplyTo !== undefined ? { inReplyTo: options.inReplyTo } : {}),
      });
      if (result.status !== "sent") throw new SendDroppedError(`part ${index} of ${key} was not sent (${result.reason})`, result.reason);
      return result.value;
    },
  });
}
