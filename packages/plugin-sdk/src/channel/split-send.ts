// One send that the plugin makes as several messages, retried without repeating what landed.
import type { SentMessage } from "./types.js";
import { SendError } from "./errors.js";
import { isRetryableSendError } from "./retryable.js";

/** Options of a `SplitSendTracker`. */
export interface SplitSendTrackerOptions {
  /** Sends whose landed parts are remembered at most (the oldest is forgotten first; default 1000). */
  maxPending?: number;
}

/**
 * For a plugin that makes one send as several messages (text that is over the platform's limit once
 * rendered, a file and a caption sent after it). `send` sends the parts in order and returns every
 * id (`messageIds`, the last as `messageId`). When a part fails, the error is thrown with
 * `deliveredMessageIds` set to the parts that landed (a non-`SendError` is wrapped in a `SendError`
 * that keeps it as `cause` and says whether it is retryable); the host retries with the same
 * `idempotencyKey`, and the next `send` starts at the first part that did not land. Remembered in
 * memory, per tracker: keep one per account.
 */
export class SplitSendTracker {
  readonly #landed = new Map<string, string[]>();
  readonly #max: number;

  constructor(options: SplitSendTrackerOptions = {}) {
    this.#max = Math.max(1, Math.floor(options.maxPending ?? 1000));
  }

  /**
   * Sends parts `0..count-1` with `sendPart` (which returns the id of the message it made), skipping
   * the parts an earlier call with the same `idempotencyKey` delivered. `count` must be at least 1.
   */
  async send(idempotencyKey: string, count: number, sendPart: (index: number) => Promise<string>): Promise<SentMessage> {
    const landed = this.#landed.get(idempotencyKey) ?? [];
    this.#landed.delete(idempotencyKey);
    for (let index = landed.length; index < count; index++) {
      try {
        landed.push(await sendPart(index));
      } catch (error) {
        if (landed.length === 0) throw error;
        this.#remember(idempotencyKey, landed);
        throw withDelivered(error, landed);
      }
    }
    const messageId = landed[landed.length - 1]!;
    return landed.length > 1 ? { messageId, messageIds: landed } : { messageId };
  }

  #remember(key: string, landed: string[]): void {
    this.#landed.set(key, landed);
    while (this.#landed.size > this.#max) this.#landed.delete(this.#landed.keys().next().value!);
  }
}

/** `error` carrying the ids that landed (its own class kept, so a 429 still pauses the chat). */
function withDelivered(error: unknown, landed: readonly string[]): SendError {
  if (error instanceof SendError) {
    error.deliveredMessageIds = [...landed];
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SendError(message, { retryable: isRetryableSendError(error), deliveredMessageIds: landed, cause: error });
}
