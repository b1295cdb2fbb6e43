import { describe, expect, it } from "vitest";
import { PermanentSendError, RateLimitedError, TransientSendError } from "./errors.js";
import { isTransientSendError } from "./retryable.js";

describe("isTransientSendError", () => {
  it("recognises socket errors, also wrapped by fetch", () => {
    expect(isTransientSendError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    const cause = Object.assign(new Error("connect"), { code: "UND_ERR_CONNECT_TIMEOUT" });
    expect(isTransientSendError(new TypeError("fetch failed", { cause }))).toBe(true);
    expect(isTransientSendError(new TransientSendError("HTTP 502 from the platform"))).toBe(true);
  });

  it("does not retry platform answers", () => {
    expect(isTransientSendError(new PermanentSendError("blocked"))).toBe(false);
    expect(isTransientSendError(new RateLimitedError("429", 1000))).toBe(false);
    expect(isTransientSendError(new Error("Bad Request: chat not found"))).toBe(false);
    expect(isTransientSendError("ECONNRESET")).toBe(false);
  });
});
