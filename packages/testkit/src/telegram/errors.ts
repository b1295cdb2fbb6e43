import type { TgErrorBody } from "./types.js";

/** A Bot API error answer; throw it from a method handler. */
export class FakeTelegramApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: TgErrorBody["parameters"],
  ) {
    super(description);
    this.name = "FakeTelegramApiError";
  }

  /** The JSON body Telegram sends for this error. */
  toBody(): TgErrorBody {
    const body: TgErrorBody = { ok: false, error_code: this.errorCode, description: this.description };
    if (this.parameters) body.parameters = this.parameters;
    return body;
  }
}

/**
 * Builds an error for a custom method handler (see `FakeTelegram.handle`) to throw, e.g.
 * `throw fakeTelegramError(400, "Bad Request: chat not found")`.
 */
export function fakeTelegramError(errorCode: number, description: string, parameters?: TgErrorBody["parameters"]): FakeTelegramApiError {
  return new FakeTelegramApiError(errorCode, description, parameters);
}

export function badRequest(description: string): FakeTelegramApiError {
  return new FakeTelegramApiError(400, `Bad Request: ${description}`);
}

export function tooManyRequests(retryAfter: number): FakeTelegramApiError {
  return new FakeTelegramApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
}

/** Reads an integer parameter (numbers or numeric strings); undefined when absent. */
export function optionalInt(params: Record<string, any>, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n)) throw badRequest(`invalid ${name} specified`);
  return n;
}

/** Reads a boolean parameter (true/false or "true"/"false"); undefined when absent. */
export function optionalBool(params: Record<string, any>, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  return value === true || value === "true" || value === 1 || value === "1";
}

/** Reads a string parameter; numbers are turned into strings. */
export function optionalString(params: Record<string, any>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : String(value);
}
