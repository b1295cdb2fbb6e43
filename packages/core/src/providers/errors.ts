import { ProviderError, type ProviderErrorKind } from "./types.js";

/** What the error mapper knows about the call that failed. */
export interface ErrorContext {
  provider: string;
  model: string;
  baseUrl?: string;
  /** The environment variable that holds the key, named in auth errors. */
  apiKeyEnv?: string;
  /** The caller's signal: once aborted, every failure is an abort. */
  signal?: AbortSignal;
}

const CONTEXT_OVERFLOW =
  /context[ _-]?length|context window|context size|maximum context|prompt is too long|prompt too long|input is too long|too many (input )?tokens|reduce the length of the messages|exceeds? (the )?(model'?s? )?(max(imum)? )?(context|input)/i;

/** True when an error message reads like "the prompt does not fit the context window". */
export function looksLikeContextOverflow(message: string): boolean {
  return CONTEXT_OVERFLOW.test(message);
}

interface HeaderLike {
  get(name: string): string | null;
}

/**
 * Milliseconds to wait from `retry-after-ms`, else `retry-after` (seconds or an HTTP date).
 * Undefined when neither header is present or parseable.
 */
export function parseRetryAfter(headers: HeaderLike | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Math.round(Number(ms)));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Pulls status, headers, error type/code and the server's message out of an API error (http-stream.ts or the Anthropic SDK). */
function inspect(err: unknown) {
  const e = (err ?? {}) as Record<string, any>;
  const body = (e.error ?? {}) as Record<string, any>;
  const nested = (body.error ?? {}) as Record<string, any>;
  const status = typeof e.status === "number" ? e.status : undefined;
  const headers = e.headers && typeof e.headers.get === "function" ? (e.headers as HeaderLike) : undefined;
  const type = str(e.type) ?? str(body.type === "error" ? nested.type : body.type) ?? str(nested.type);
  const code = str(e.code) ?? str(body.code) ?? str(e.errorCode) ?? str(nested.code);
  const apiMessage = str(e.apiMessage) ?? str(nested.message) ?? str(body.message) ?? str(e.message) ?? String(err);
  // The Anthropic SDK names its errors; the OpenAI SDK leaves name "Error", so use the class name.
  const name = [str(e.name), str(e.constructor?.name)].find((n) => n !== undefined && n !== "Error") ?? str(e.name) ?? "";
  return { status, headers, type, code, apiMessage, name };
}

function isAbortLike(name: string, err: unknown): boolean {
  return name === "AbortError" || name === "APIUserAbortError" || (err instanceof DOMException && err.name === "AbortError");
}

function kindOf(info: ReturnType<typeof inspect>): ProviderErrorKind {
  const { status, type, code, apiMessage, name } = info;
  if (name === "APIConnectionTimeoutError") return "timeout";
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") return "auth";
  if (status === 402 || type === "billing_error") return "auth";
  if (status === 429 || type === "rate_limit_error" || code === "rate_limit_exceeded") return "rate_limit";
  if (
    code === "context_length_exceeded" ||
    ((status === undefined || (status >= 400 && status < 500)) && looksLikeContextOverflow(apiMessage))
  ) {
    return "context_overflow";
  }
  if (status === 529 || status === 503 || status === 502 || type === "overloaded_error") return "overloaded";
  // In-stream errors carry no status; read the wording.
  if (status === undefined && /overloaded|over capacity/i.test(apiMessage)) return "overloaded";
  if (status === undefined && /rate limit/i.test(apiMessage)) return "rate_limit";
  if (status === 408 || status === 504 || type === "timeout_error") return "timeout";
  if (status !== undefined && status >= 400 && status < 500) return "bad_request";
  return "unknown";
}

/** The innermost cause's code or message, e.g. "ECONNREFUSED". */
function rootCause(cause: unknown): string | undefined {
  let current = cause as { cause?: unknown; code?: unknown; message?: unknown } | undefined;
  for (let depth = 0; current?.cause && depth < 5; depth += 1) current = current.cause as typeof current;
  if (!current) return undefined;
  return str(current.code) ?? str(current.message);
}

function describe(
  kind: ProviderErrorKind,
  info: ReturnType<typeof inspect> & { cause?: unknown },
  ctx: ErrorContext,
  retryAfterMs?: number,
): string {
  const prefix = `${ctx.provider}/${ctx.model}`;
  const status = info.status !== undefined ? ` (HTTP ${info.status})` : "";
  const server = info.apiMessage;
  switch (kind) {
    case "auth": {
      const fix = ctx.apiKeyEnv
        ? `check the key in ${ctx.apiKeyEnv} or models.providers.${ctx.provider}.apiKey`
        : `check models.providers.${ctx.provider}.apiKey`;
      return `${prefix}: the provider refused the credentials${status}: ${server.replace(/\.+$/, "")}. Fix: ${fix}.`;
    }
    case "rate_limit":
      return `${prefix}: rate limited${status}${retryAfterMs !== undefined ? `, retry after ${Math.ceil(retryAfterMs / 1000)} s` : ""}: ${server}`;
    case "overloaded":
      return `${prefix}: the provider is overloaded${status}: ${server}`;
    case "timeout":
      return `${prefix}: the request timed out${status}: ${server}`;
    case "context_overflow":
      return `${prefix}: the conversation no longer fits the model's context window${status}: ${server}`;
    case "bad_request":
      return `${prefix}: the provider rejected the request${status}: ${server}`;
    case "abort":
      return `${prefix}: the request was aborted`;
    default: {
      if (info.name === "APIConnectionError") {
        const cause = rootCause(info.cause);
        const detail = cause ? ` (${cause})` : "";
        if (cause && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(cause)) {
          return `${prefix}: could not reach ${ctx.baseUrl ?? "the provider"}${detail}. Is the server running and the baseUrl right?`;
        }
        return `${prefix}: the connection to ${ctx.baseUrl ?? "the provider"} failed before a response${detail}`;
      }
      if (
        /^(terminated|other side closed|socket hang up)$/i.test(server) ||
        /ECONNRESET|UND_ERR_SOCKET/.test(rootCause(info.cause) ?? "")
      ) {
        return `${prefix}: the connection to ${ctx.baseUrl ?? "the provider"} dropped mid-response`;
      }
      return `${prefix}: ${server}${status}`;
    }
  }
}

/**
 * Classifies any failure of a model call as a {@link ProviderError}: 401/403/402 -> auth, 429 ->
 * rate_limit (with `retryAfterMs` from the headers), 529/503/502 or `overloaded_error` ->
 * overloaded, 408/504 or a client timeout -> timeout, a context-length 4xx -> context_overflow,
 * other 4xx -> bad_request, an aborted signal -> abort, anything else -> unknown. A ProviderError
 * passes through unchanged.
 */
export function toProviderError(err: unknown, ctx: ErrorContext): ProviderError {
  if (err instanceof ProviderError) return err;
  const info = inspect(err);
  if (ctx.signal?.aborted || isAbortLike(info.name, err)) {
    return new ProviderError({
      kind: "abort",
      message: describe("abort", info, ctx),
      provider: ctx.provider,
      model: ctx.model,
      cause: err,
    });
  }
  const kind = kindOf(info);
  const retryAfterMs = kind === "rate_limit" || kind === "overloaded" ? parseRetryAfter(info.headers) : undefined;
  const withCause = Object.assign(info, { cause: (err as { cause?: unknown })?.cause });
  return new ProviderError({
    kind,
    message: describe(kind, withCause, ctx, retryAfterMs),
    provider: ctx.provider,
    model: ctx.model,
    ...(info.status !== undefined ? { status: info.status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    cause: err,
  });
}

/** The error for a call made without the key the provider needs. */
export function missingApiKeyError(ctx: { provider: string; model: string; apiKeyEnv?: string; configPath?: string }): ProviderError {
  const where = ctx.configPath ? ` in ${ctx.configPath}` : "";
  const env = ctx.apiKeyEnv ? `set the ${ctx.apiKeyEnv} environment variable, or ` : "";
  return new ProviderError({
    kind: "auth",
    message: `No API key for provider "${ctx.provider}" (model ${ctx.provider}/${ctx.model}): ${env}set models.providers.${ctx.provider}.apiKey${where} (e.g. "\${${ctx.apiKeyEnv ?? "MY_API_KEY"}}").`,
    provider: ctx.provider,
    model: ctx.model,
  });
}

/** The coarse reason a run failed that may be shown to anyone in a chat. */
export type FailureCategory = "auth" | "rate_limit" | "overloaded" | "timeout" | "network" | "other";

const NETWORK_CAUSE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|UND_ERR_SOCKET/;

/** True when the failure is the connection itself (refused, unreachable, dropped), not an answer. */
function isNetworkFailure(err: unknown, depth = 0): boolean {
  if (depth > 5 || err === undefined || err === null) return false;
  if (err instanceof ProviderError) return isNetworkFailure(err.cause, depth + 1);
  const info = inspect(err);
  if (info.name === "APIConnectionError") return true;
  if (/^(terminated|other side closed|socket hang up|fetch failed)$/i.test(info.apiMessage)) return true;
  return NETWORK_CAUSE.test(rootCause((err as { cause?: unknown }).cause) ?? str((err as { code?: unknown }).code) ?? "");
}

/**
 * Classifies a failed run for a chat notice: a ProviderError's auth, rate_limit, overloaded and
 * timeout kinds as they are, a connection that failed or dropped as "network", anything else
 * (bad request, context overflow, config and workspace errors) as "other".
 */
export function failureCategory(err: unknown): FailureCategory {
  if (!(err instanceof ProviderError)) return "other";
  switch (err.kind) {
    case "auth":
    case "rate_limit":
    case "overloaded":
    case "timeout":
      return err.kind;
    default:
      return isNetworkFailure(err) ? "network" : "other";
  }
}
