// Which send failures are worth retrying: what the error says it is, network hiccups and 5xx
// answers; never a platform's refusal.
import { SendError } from "./errors.js";

/** Error codes Node and undici use for a connection that failed or dropped mid-request. */
const NETWORK_CODES = new Set([
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

/** Messages of errors that carry no code: fetch's wrapper, Node's http client, a closed socket. */
const NETWORK_MESSAGE =
  /\bfetch failed\b|\bsocket hang up\b|\bnetwork error\b|\bother side closed\b|\bconnection (?:reset|refused|closed)\b/i;

function field(value: object, name: string): unknown {
  return (value as Record<string, unknown>)[name];
}

/** An HTTP status on the error: `status`, `statusCode`, `error_code` (Bot API style) or `response.status`. */
function httpStatusOf(value: object): number | undefined {
  const response = field(value, "response");
  for (const candidate of [
    field(value, "status"),
    field(value, "statusCode"),
    field(value, "error_code"),
    typeof response === "object" && response !== null ? field(response, "status") : undefined,
  ]) {
    if (typeof candidate === "number" && candidate >= 100 && candidate <= 599) return candidate;
  }
  return undefined;
}

/**
 * True when a failed send may succeed if made again: a `SendError` whose `retryable` is true
 * (`RateLimitedError`, `TransientSendError`), an HTTP 5xx answer, a network error (a Node or undici
 * socket code such as `ECONNRESET` or `ETIMEDOUT`, `fetch failed`, `socket hang up`) or a
 * `TimeoutError`, on the error or in its `cause` chain (up to 5 deep). False for everything else:
 * `PermanentSendError`, 4xx answers, unknown errors and non-errors.
 */
export function isRetryableSendError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if (current instanceof SendError) return current.retryable;
    const code = field(current, "code");
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    const status = httpStatusOf(current);
    if (status !== undefined) return status >= 500;
    if (current instanceof Error && (current.name === "TimeoutError" || NETWORK_MESSAGE.test(current.message))) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
