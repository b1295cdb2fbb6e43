/**
 * matrix-js-sdk errors -> the SDK contract's send errors: 429 `M_LIMIT_EXCEEDED` becomes a
 * `RateLimitedError` with the server's `retry_after_ms` (the account's send budget waits it out),
 * refusals that will not pass (`M_FORBIDDEN`, an unknown room, a too-large event) become
 * `PermanentSendError`, and anything else (5xx, network) a `TransientSendError`.
 */
import { PermanentSendError, RateLimitedError, type SendError, TransientSendError } from "@openclaw/plugin-sdk";

interface MatrixLikeError {
  httpStatus?: number;
  errcode?: string;
  data?: { retry_after_ms?: unknown; errcode?: unknown; error?: unknown };
  message?: string;
  getRetryAfterMs?: () => number | null;
}

/** Default pause after a 429 without `retry_after_ms`. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

const PERMANENT = new Set(["M_FORBIDDEN", "M_NOT_FOUND", "M_TOO_LARGE", "M_BAD_JSON", "M_NOT_JSON", "M_UNKNOWN_TOKEN", "M_INVALID_PARAM"]);

/** The contract's error for a failed Matrix call (`what` says which, e.g. "send to !room:server"). */
export function toSendError(error: unknown, what: string): SendError {
  const e = (error ?? {}) as MatrixLikeError;
  const errcode = e.errcode ?? (typeof e.data?.errcode === "string" ? e.data.errcode : undefined);
  const reason = typeof e.data?.error === "string" ? e.data.error : (e.message ?? String(error));
  if (e.httpStatus === 429 || errcode === "M_LIMIT_EXCEEDED") {
    let retryAfter: number | null = null;
    try {
      retryAfter = e.getRetryAfterMs?.() ?? null;
    } catch {
      retryAfter = null;
    }
    if (retryAfter === null && typeof e.data?.retry_after_ms === "number") retryAfter = e.data.retry_after_ms;
    return new RateLimitedError(`Matrix: ${what} was rate limited (${reason})`, retryAfter ?? DEFAULT_RETRY_AFTER_MS, { cause: error });
  }
  if ((errcode !== undefined && PERMANENT.has(errcode)) || (e.httpStatus !== undefined && e.httpStatus >= 400 && e.httpStatus < 500)) {
    return new PermanentSendError(`Matrix: ${what} was refused: ${errcode ?? e.httpStatus} ${reason}`, errcode ?? `http_${e.httpStatus}`, {
      cause: error,
    });
  }
  return new TransientSendError(`Matrix: ${what} failed: ${reason}`, {
    ...(e.httpStatus !== undefined ? { code: `http_${e.httpStatus}` } : {}),
    cause: error,
  });
}
