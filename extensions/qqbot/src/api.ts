/**
 * Calls to the QQ Bot OpenAPI with the SDK's `httpFetch` (node:http, without undici): the
 * `Authorization: QQBot <token>` header, one retry with a fresh token when the platform says the
 * token expired, and the platform's refusals as the SDK's send errors (429 -> `RateLimitedError`, 5xx -> `TransientSendError`, other 4xx ->
 * `PermanentSendError` with the platform's code).
 */
import { type HttpFetchResponse, httpFetch, PermanentSendError, RateLimitedError, TransientSendError } from "@openclaw/plugin-sdk";
import type { TokenManager } from "./token.js";

/** Platform codes that mean "this access token is not valid (any more)". */
const TOKEN_CODES = new Set([11241, 11242, 11243, 11244, 11251, 11252, 11253]);

/** Default wait after a 429 without a Retry-After header. */
const DEFAULT_RETRY_AFTER_MS = 1000;

/** An error answer of the OpenAPI: `{code, message}` and the HTTP status. */
export class QQApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | undefined,
  ) {
    super(message);
    this.name = "QQApiError";
  }
}

/** The OpenAPI client of one account. */
export class QQApi {
  readonly #base: string;
  readonly #tokens: TokenManager;
  readonly #fetch: typeof httpFetch;

  constructor(apiBase: string, tokens: TokenManager, fetchImpl: typeof httpFetch = httpFetch) {
    this.#base = apiBase;
    this.#tokens = tokens;
    this.#fetch = fetchImpl;
  }

  /** `GET /gateway`: the WebSocket URL. */
  async gatewayUrl(signal?: AbortSignal): Promise<string> {
    const body = await this.request<{ url?: unknown }>("GET", "/gateway", undefined, signal);
    if (typeof body.url !== "string") throw new Error("QQ Bot GET /gateway answered without a url");
    return body.url;
  }

  /**
   * Calls `method path` with a JSON body; retries once with a new token when the platform says the
   * token is not valid.
   */
  async request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    let token = await this.#tokens.get();
    for (let attempt = 0; ; attempt++) {
      const response = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers: { authorization: `QQBot ${token}`, "content-type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
      const text = await response.text();
      let json: unknown = {};
      try {
        json = text === "" ? {} : JSON.parse(text);
      } catch {
        json = { message: text.slice(0, 200) };
      }
      if (response.ok) return json as T;
      const { code, message } = json as { code?: unknown; message?: unknown };
      const numeric = typeof code === "number" ? code : undefined;
      if (attempt === 0 && (response.status === 401 || (numeric !== undefined && TOKEN_CODES.has(numeric)))) {
        this.#tokens.invalidate(token);
        token = await this.#tokens.get();
        continue;
      }
      throw toSendError(method, path, response, numeric, typeof message === "string" ? message : `HTTP ${response.status}`);
    }
  }
}

function toSendError(method: string, path: string, response: HttpFetchResponse, code: number | undefined, message: string): Error {
  const what = `QQ Bot ${method} ${path.replace(/\/[0-9A-Fa-f]{32}\//, "/…/")}: ${message}${code !== undefined ? ` (code ${code})` : ""}`;
  const details = { cause: new QQApiError(what, response.status, code), ...(code !== undefined ? { code: String(code) } : {}) };
  if (response.status === 429) {
    const header = Number(response.headers.get("retry-after"));
    return new RateLimitedError(what, Number.isFinite(header) && header > 0 ? header * 1000 : DEFAULT_RETRY_AFTER_MS, details);
  }
  if (response.status >= 500) return new TransientSendError(what, details);
  return new PermanentSendError(what, code !== undefined ? String(code) : String(response.status), { cause: details.cause });
}
