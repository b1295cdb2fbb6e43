import { describe, expect, it } from "vitest";
import { PermanentSendError, RateLimitedError, SendError, TransientSendError } from "./errors.js";
import { isRetryableSendError } from "./retryable.js";

describe("send errors", () => {
  it("share one shape: retryable, retryAfterMs, code and the parts that landed", () => {
    const limited = new RateLimitedError("429", 3000);
    const refused = new PermanentSendError("chat not found", "chat_not_found");
    const flaky = new TransientSendError("HTTP 502", { code: "http_502", deliveredMessageIds: ["7"], cause: new Error("bad gateway") });
    for (const error of [limited, refused, flaky]) expect(error).toBeInstanceOf(SendError);
    expect([limited.retryable, limited.retryAfterMs, limited.code, limited.name]).toEqual([true, 3000, "rate_limited", "RateLimitedError"]);
    expect([refused.retryable, refused.retryAfterMs, refused.code, refused.name]).toEqual([
      false,
      undefined,
      "chat_not_found",
      "PermanentSendError",
    ]);
    expect([flaky.retryable, flaky.code, flaky.deliveredMessageIds, (flaky.cause as Error).message]).toEqual([
      true,
      "http_502",
      ["7"],
      "bad gateway",
    ]);
  });
});

describe("isRetryableSendError", () => {
  it("is true for retryable send errors, 5xx answers and network errors, also wrapped", () => {
    expect(isRetryableSendError(new TransientSendError("HTTP 502 from the platform"))).toBe(true);
    expect(isRetryableSendError(new RateLimitedError("429", 1000))).toBe(true);
    expect(isRetryableSendError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    expect(isRetryableSendError(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" }))).toBe(true);
    const cause = Object.assign(new Error("connect"), { code: "UND_ERR_CONNECT_TIMEOUT" });
    expect(isRetryableSendError(new TypeError("fetch failed", { cause }))).toBe(true);
    expect(isRetryableSendError(new TypeError("fetch failed"))).toBe(true);
    expect(isRetryableSendError(new Error("socket hang up"))).toBe(true);
    expect(isRetryableSendError(Object.assign(new Error("Bad Gateway"), { error_code: 502 }))).toBe(true);
    expect(isRetryableSendError(Object.assign(new Error("Service Unavailable"), { status: 503 }))).toBe(true);
    expect(isRetryableSendError(new Error("request failed", { cause: Object.assign(new Error("x"), { response: { status: 500 } }) }))).toBe(
      true,
    );
    expect(isRetryableSendError(Object.assign(new Error("aborted"), { name: "TimeoutError" }))).toBe(true);
  });

  it("is false for refusals, 4xx answers, unknown errors and non-errors", () => {
    expect(isRetryableSendError(new PermanentSendError("blocked"))).toBe(false);
    expect(isRetryableSendError(new PermanentSendError("blocked", "bot_blocked", { cause: new Error("socket hang up") }))).toBe(false);
    expect(isRetryableSendError(Object.assign(new Error("Bad Request: chat not found"), { error_code: 400 }))).toBe(false);
    expect(isRetryableSendError(new Error("Bad Request: chat not found"))).toBe(false);
    expect(isRetryableSendError("ECONNRESET")).toBe(false);
    expect(isRetryableSendError(undefined)).toBe(false);
  });
});
