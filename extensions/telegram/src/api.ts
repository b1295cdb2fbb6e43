/**
 * The one seam every outgoing Bot API call passes through: a grammY API transformer that turns
 * Telegram's answers into the SDK's error contract (so the shared send budget can pace, retry or
 * give up) and logs each call.
 */
import { PermanentSendError, RateLimitedError, TransientSendError, type PluginLogger } from "@openclaw/plugin-sdk";
import { Api, HttpError, type Transformer } from "./grammy.js";

/** Telegram's answer when an edit would not change the message; the edit has nothing to do. */
const NOT_MODIFIED = /message is not modified/i;

/** Answers that mean the chat cannot be reached until someone changes something. */
const UNREACHABLE: readonly [RegExp, string][] = [
  [/chat not found/i, "chat_not_found"],
  [/bot was blocked by the user/i, "bot_blocked"],
  [/bot was kicked|bot is not a member|user is deactivated|have no rights|not enough rights|CHAT_WRITE_FORBIDDEN/i, "forbidden"],
];

/** The short code of a refused call, kept on `PermanentSendError.code`. */
function refusalCode(errorCode: number, description: string): string {
  for (const [pattern, code] of UNREACHABLE) if (pattern.test(description)) return code;
  if (/can't parse entities/i.test(description)) return "parse_entities";
  if (errorCode === 401) return "unauthorized";
  if (errorCode === 403) return "forbidden";
  return "bad_request";
}

/** True when Telegram refused the markup of a message (send it again as plain text). */
export function isEntityParseError(error: unknown): boolean {
  return error instanceof PermanentSendError && error.code === "parse_entities";
}

/**
 * The transformer of the sending side:
 * - 429 -> `RateLimitedError` with `retry_after` in ms (1 s when Telegram gives none);
 * - 400 "message is not modified" on an edit -> success (the message already shows that text);
 * - other 4xx ("chat not found", "bot was blocked", bad markup, …) -> `PermanentSendError` with a
 *   `code` (`chat_not_found`, `bot_blocked`, `forbidden`, `parse_entities`, `unauthorized`,
 *   `bad_request`);
 * - 5xx answers ("Bad Gateway", …) -> `TransientSendError` with code `http_<status>` (retried
 *   with backoff for finals, blocks and stream opens);
 * - network failures (reset, timeout, DNS) -> `TransientSendError` with code `network` whose
 *   `cause` is the socket error.
 */
export function sendingTransformer(log: PluginLogger): Transformer {
  return async (prev, method, payload, signal) => {
    const started = Date.now();
    let response;
    try {
      response = await prev(method, payload, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = error instanceof HttpError ? error.error : error;
      log.warn(`telegram ${method} failed: network error`, { error: String(cause) });
      throw new TransientSendError(`Telegram ${method}: the request failed (${cause instanceof Error ? cause.message : String(cause)})`, {
        code: "network",
        cause,
      });
    }
    const ms = Date.now() - started;
    if (response.ok) {
      log.debug(`telegram ${method} ok`, { ms });
      return response;
    }
    const { error_code: code, description } = response;
    if (code === 429) {
      const seconds = response.parameters?.retry_after ?? 1;
      log.warn(`telegram ${method} rate limited; retry after ${seconds}s`, { ms });
      throw new RateLimitedError(`Telegram ${method}: ${description}`, Math.max(0, seconds) * 1000);
    }
    if (code === 400 && NOT_MODIFIED.test(description) && method.startsWith("edit")) {
      log.debug(`telegram ${method}: not modified (treated as done)`, { ms });
      return { ok: true, result: true } as unknown as typeof response;
    }
    if (code >= 400 && code < 500) {
      const reason = refusalCode(code, description);
      log.warn(`telegram ${method} refused: ${description}`, { code, ms });
      throw new PermanentSendError(`Telegram ${method} failed: ${description}`, reason);
    }
    log.warn(`telegram ${method} failed: ${description}`, { code, ms });
    if (code >= 500) throw new TransientSendError(`Telegram ${method} failed: ${code} ${description}`, { code: `http_${code}` });
    return response;
  };
}

/** Options of `createSendingApi`. */
export interface SendingApiOptions {
  /** Bot API root (default https://api.telegram.org); a trailing `/` is removed. */
  apiRoot?: string | undefined;
  log: PluginLogger;
  /** Per-request timeout in seconds (default 60). */
  timeoutSeconds?: number;
}

/** The abort signal type grammY's declarations use (a polyfill's); Node's signals work at run time. */
export type GrammySignal = NonNullable<Parameters<Api["getMe"]>[0]>;

/** Node's `AbortSignal` as grammY's declared signal type (they are the same thing at run time). */
export function grammySignal(signal: AbortSignal): GrammySignal;
export function grammySignal(signal: AbortSignal | undefined): GrammySignal | undefined;
export function grammySignal(signal: AbortSignal | undefined): GrammySignal | undefined {
  return signal as unknown as GrammySignal | undefined;
}

/** Removes a trailing slash (grammY refuses one) from an API root. */
export function normalizeApiRoot(apiRoot: string | undefined): string | undefined {
  return apiRoot === undefined ? undefined : apiRoot.replace(/\/+$/, "");
}

/** A grammY `Api` for sending, with {@link sendingTransformer} installed. */
export function createSendingApi(token: string, options: SendingApiOptions): Api {
  const apiRoot = normalizeApiRoot(options.apiRoot);
  const api = new Api(token, { ...(apiRoot ? { apiRoot } : {}), timeoutSeconds: options.timeoutSeconds ?? 60 });
  api.config.use(sendingTransformer(options.log));
  return api;
}
