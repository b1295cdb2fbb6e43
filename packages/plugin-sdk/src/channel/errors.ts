/** Options of a `SendError`. */
export interface SendErrorOptions {
  /** Whether the same call may succeed when made again (after `retryAfterMs`, or with backoff). */
  retryable: boolean;
  /** How long to wait before trying again, when the platform said. */
  retryAfterMs?: number;
  /** A short machine-readable reason (`"rate_limited"`, `"bot_blocked"`, `"http_502"`, …). */
  code?: string;
  /** Ids of the messages of this send that landed before it failed (see `SendError.deliveredMessageIds`). */
  deliveredMessageIds?: readonly string[];
  cause?: unknown;
}

/**
 * The one shape of a failed outbound call. Throw a subclass: `RateLimitedError`,
 * `PermanentSendError` or `TransientSendError`; the host retries what is `retryable` (finals,
 * blocks and stream opens with backoff, previews at the next tick) and never what is not.
 */
export class SendError extends Error {
  /** Whether the same call may succeed when made again. */
  readonly retryable: boolean;
  /** How long to wait before trying again, when known. */
  readonly retryAfterMs: number | undefined;
  /** A short machine-readable reason, when known. */
  readonly code: string | undefined;
  /**
   * For a send the plugin made as several messages (text over the platform's limit, a file and
   * its caption): the ids of the parts that landed before the failure, in order. A retry with the
   * same `idempotencyKey` must send only the parts that did not (`SplitSendTracker` does this).
   * Set by the plugin; undefined when nothing landed.
   */
  deliveredMessageIds: string[] | undefined;

  constructor(message: string, options: SendErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SendError";
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
    this.deliveredMessageIds = options.deliveredMessageIds === undefined ? undefined : [...options.deliveredMessageIds];
  }
}

/** Options of the `SendError` subclasses (what their constructors do not fix). */
export type SendErrorDetails = Omit<SendErrorOptions, "retryable" | "retryAfterMs">;

/** The platform said "too many requests": retry after `retryAfterMs` (the send budget pauses the chat). */
export class RateLimitedError extends SendError {
  declare readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number, details: SendErrorDetails = {}) {
    super(message, { code: "rate_limited", ...details, retryable: true, retryAfterMs });
    this.name = "RateLimitedError";
  }
}

/** A send that will fail the same way again (bad chat id, blocked by the user): never retried. */
export class PermanentSendError extends SendError {
  constructor(message: string, code?: string, details: Omit<SendErrorDetails, "code"> = {}) {
    super(message, { ...details, ...(code !== undefined ? { code } : {}), retryable: false });
    this.name = "PermanentSendError";
  }
}

/**
 * A send that failed for a reason that may pass (the platform answered 5xx, the request timed out,
 * the connection dropped): finals, blocks and stream opens are retried with backoff, previews at
 * their next tick. Network errors (`ECONNRESET`, `fetch failed`, …) are treated the same way
 * without wrapping (see `isRetryableSendError`).
 */
export class TransientSendError extends SendError {
  constructor(message: string, details: SendErrorDetails & { retryAfterMs?: number } = {}) {
    super(message, { ...details, retryable: true });
    this.name = "TransientSendError";
  }
}

/** An account's config cannot work; the message names the config path and the fix. */
export class AccountConfigError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = "AccountConfigError";
  }
}
