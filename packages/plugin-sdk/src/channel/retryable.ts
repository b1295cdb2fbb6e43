// Which send failures are worth retrying: network hiccups, not platform refusals.
import { PermanentSendError, RateLimitedError, TransientSendError } from "./errors.js";

/** Error codes Node and undici use for a connection that failed or dropped mid-request. */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function codeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * True for a failure that may succeed when retried: a `TransientSendError`, a known socket error
 * code on the error or its `cause` (fetch wraps them as `TypeError("fetch failed")`), or a
 * `TimeoutError`. Rate limits and `PermanentSendError` are never transient here (they have their
 * own rules).
 */
export function isTransientSendError(error: unknown): boolean {
  if (error instanceof PermanentSendError || error instanceof RateLimitedError) return false;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof TransientSendError) return true;
    const code = codeOf(current);
    if (code !== undefined && TRANSIENT_CODES.has(code)) return true;
    if (current instanceof Error && current.name === "TimeoutError") return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
