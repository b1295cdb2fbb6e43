/**
 * The Open API calls of one account (open-api.ts fetches and renews the tenant access token).
 * Every failure becomes the SDK contract's one error shape: frequency limits are
 * `RateLimitedError`s and card update conflicts `TransientSendError`s (the send budget retries
 * both), 5xx and network errors are transient, anything else is permanent.
 */
import { PermanentSendError, RateLimitedError, TransientSendError } from "@openclaw/plugin-sdk";
import {
  type FormPart,
  type HttpMethod,
  type OpenApiAnswer,
  type OpenApiClient,
  type OpenApiRequest,
  TenantTokenError,
} from "./open-api.js";

/** Codes Feishu answers for "too many requests" (app, tenant and per-chat frequency limits). */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([99991400, 99991403, 230020, 11232, 11233, 11247, 300310]);

/**
 * Codes of a card that could not take an update right now (a sequence that did not rise, the card
 * busy with another update): a later update, with the next sequence, goes through.
 */
export const CARD_CONFLICT_CODES: ReadonlySet<number> = new Set([300317, 300309, 200850, 300311]);

/** How long to wait after a frequency limit when the platform names no time. */
const DEFAULT_RETRY_MS = 1000;

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
  constructor(readonly client: OpenApiClient) {}

  /** One call; resolves with `data` of a `code: 0` answer, throws the contract's error otherwise. */
  async call<T = Record<string, unknown>>(
    what: string,
    method: HttpMethod,
    url: string,
    data?: unknown,
    params?: Record<string, string>,
  ): Promise<T> {
    return this.answer<T>(what, { method, path: url, ...(data !== undefined ? { json: data } : {}), ...(params ? { query: params } : {}) });
  }

  /** A multipart upload (images, files); resolves with `data` like `call`. */
  async upload<T = Record<string, unknown>>(what: string, path: string, parts: FormPart[]): Promise<T> {
    return this.answer<T>(what, { method: "POST", path, form: parts });
  }

  private async answer<T>(what: string, request: OpenApiRequest): Promise<T> {
    let answer: OpenApiAnswer;
    try {
      answer = await this.client.request(request);
    } catch (error) {
      if (error instanceof TenantTokenError)
        throw sendErrorOf(`a tenant access token for ${what}`, error.code, error.platformMessage, error.httpStatus);
      throw new TransientSendError(`Feishu could not be reached for ${what}: ${(error as Error)?.message ?? String(error)}`, {
        cause: error,
      });
    }
    const { status, body } = answer;
    if (status >= 400 || (body.code !== undefined && body.code !== 0)) {
      const reset = Number(answer.header("x-ogw-ratelimit-reset"));
      throw sendErrorOf(
        what,
        body.code ?? status,
        body.msg ?? "",
        status >= 400 ? status : undefined,
        Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined,
      );
    }
    // Most answers carry their result in `data`; a few (bot info) at the top level.
    return (body.data ?? body) as T;
  }
}
