/**
 * The Open API calls of one account, through the SDK's `Client` (which fetches and renews the
 * tenant access token). Every failure becomes the SDK contract's one error shape: frequency limits
 * are `RateLimitedError`s and card update conflicts `TransientSendError`s (the send budget retries
 * both), 5xx and network errors are transient, anything else is permanent.
 */
import { PermanentSendError, RateLimitedError, TransientSendError } from "@openclaw/plugin-sdk";
import type { LarkClient } from "./lark.js";

/** Codes Feishu answers for "too many requests" (app, tenant and per-chat frequency limits). */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([99991400, 99991403, 230020, 11232, 11233, 11247, 300310]);

/**
 * Codes of a card that could not take an update right now (a sequence that did not rise, the card
 * busy with another update): a later update, with the next sequence, goes through.
 */
export const CARD_CONFLICT_CODES: ReadonlySet<number> = new Set([300317, 300309, 200850, 300311]);

/** How long to wait after a frequency limit when the platform names no time. */
const DEFAULT_RETRY_MS = 1000;

/** An Open API answer that is not `code: 0`. */
export class FeishuApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly httpStatus: number | undefined,
  ) {
    super(message);
    this.name = "FeishuApiError";
  }
}

interface Envelope {
  code?: number;
  msg?: string;
  data?: unknown;
}

/** The body and status of an axios error, when it has a response. */
function responseOf(error: unknown): { status: number; body: Envelope; headers: Record<string, string> } | undefined {
  const response = (error as { response?: { status?: number; data?: unknown; headers?: Record<string, string> } })?.response;
  if (response === undefined || typeof response.status !== "number") return undefined;
  const body = response.data !== null && typeof response.data === "object" ? (response.data as Envelope) : {};
  return { status: response.status, body, headers: response.headers ?? {} };
}

/** The contract's error for a refused call. */
export function sendErrorOf(what: string, code: number, msg: string, httpStatus?: number, retryAfterMs?: number): Error {
  const text = `Feishu refused ${what}: ${msg || "no message"} (code ${code}${httpStatus ? `, HTTP ${httpStatus}` : ""})`;
  if (RATE_LIMIT_CODES.has(code) || httpStatus === 429)
    return new RateLimitedError(text, retryAfterMs ?? DEFAULT_RETRY_MS, { code: String(code) });
  if (CARD_CONFLICT_CODES.has(code)) return new TransientSendError(text, { code: String(code) });
  if (httpStatus !== undefined && httpStatus >= 500) return new TransientSendError(text, { code: `http_${httpStatus}` });
  return new PermanentSendError(text, String(code));
}

/** The calls of one account. */
export class FeishuApi {
  constructor(readonly client: LarkClient) {}

  /** One call; resolves with `data` of a `code: 0` answer, throws the contract's error otherwise. */
  async call<T = Record<string, unknown>>(
    what: string,
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    url: string,
    data?: unknown,
    params?: Record<string, string>,
  ): Promise<T> {
    let body: Envelope;
    try {
      body = ((await this.client.request({ method, url, ...(data !== undefined ? { data } : {}), ...(params ? { params } : {}) })) ??
        {}) as Envelope;
    } catch (error) {
      const response = responseOf(error);
      if (response === undefined) {
        if (error instanceof FeishuApiError) throw error;
        throw new TransientSendError(`Feishu could not be reached for ${what}: ${(error as Error)?.message ?? String(error)}`, {
          cause: error,
        });
      }
      const reset = Number(response.headers["x-ogw-ratelimit-reset"]);
      throw sendErrorOf(
        what,
        response.body.code ?? response.status,
        response.body.msg ?? "",
        response.status,
        Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined,
      );
    }
    if (body.code !== undefined && body.code !== 0) throw sendErrorOf(what, body.code, body.msg ?? "");
    // Most answers carry their result in `data`; a few (bot info) at the top level.
    return (body.data ?? body) as T;
  }
}
