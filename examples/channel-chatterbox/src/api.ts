// src/api.ts: one call to the Chatterbox HTTP API, with its failures mapped to the SDK's errors.
import { httpFetch, PermanentSendError, RateLimitedError, TransientSendError } from "@openclaw/plugin-sdk";

/** The settings one account runs with: what `resolveAccount` returns and `connect` receives. */
export interface ChatterboxAccount {
  token: string;
  /** API root without a trailing slash. */
  baseUrl: string;
  /** The config key the token came from, for error messages (`channels.chatterbox.apiToken`). */
  tokenPath: string;
}

/**
 * Calls `method path` and returns the JSON answer (undefined for 204). Throws `RateLimitedError`
 * on 429, `TransientSendError` on 5xx and `PermanentSendError` (code: the HTTP status) on any
 * other refusal. Network errors pass through: the gateway counts them as transient.
 */
export async function callChatterbox<T>(
  account: ChatterboxAccount,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  options: { signal: AbortSignal; body?: unknown },
): Promise<T> {
  const response = await httpFetch(`${account.baseUrl}${path}`, {
    method,
    signal: options.signal,
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  if (response.status === 429) {
    const seconds = Number(response.headers.get("retry-after"));
    throw new RateLimitedError(
      `Chatterbox rate limit on ${method} ${path}`,
      Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
    );
  }
  if (response.status >= 500) throw new TransientSendError(`Chatterbox answered ${response.status} to ${method} ${path}`);
  if (!response.ok) {
    // 400 bad request, 401 bad token, 403 the bot was removed, 404 the message is gone: retrying cannot help.
    const detail = await response.text();
    throw new PermanentSendError(`Chatterbox refused ${method} ${path}: ${response.status} ${detail}`, String(response.status));
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}
