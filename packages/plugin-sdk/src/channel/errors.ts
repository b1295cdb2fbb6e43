/** The platform said "too many requests": retry after `retryAfterMs` (the send budget waits). */
export class RateLimitedError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = "RateLimitedError";
  }
}

/** A send that will fail the same way again (bad chat id, blocked by the user): do not retry. */
export class PermanentSendError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "PermanentSendError";
  }
}

/**
 * A send that failed for a reason that may pass (the platform answered 5xx, the request timed out):
 * finals and blocks are retried with backoff, previews are not. Network errors (`ECONNRESET`,
 * `fetch failed`, …) are treated the same way without wrapping.
 */
export class TransientSendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
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
