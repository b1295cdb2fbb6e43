import { describe, expect, it } from "vitest";
import { RateLimitedError, SendError } from "./errors.js";
import { isRetryableSendError } from "./retryable.js";
import { SplitSendTracker } from "./split-send.js";

/** A platform that numbers the messages it accepts and fails the calls listed in `failAt`. */
function platform(failAt: Map<number, () => Error>) {
  const shown: string[] = [];
  let calls = 0;
  const sendPart = (parts: string[]) => async (index: number) => {
    const fault = failAt.get(++calls);
    if (fault) throw fault();
    shown.push(parts[index]!);
    return `m${shown.length}`;
  };
  return { shown, sendPart };
}

describe("SplitSendTracker", () => {
  it("reports every part's id, the last as messageId", async () => {
    const { sendPart } = platform(new Map());
    const tracker = new SplitSendTracker();
    expect(await tracker.send("k1", 3, sendPart(["a", "b", "c"]))).toEqual({ messageId: "m3", messageIds: ["m1", "m2", "m3"] });
    expect(await tracker.send("k2", 1, sendPart(["d"]))).toEqual({ messageId: "m4" });
  });

  it("a retry with the same key sends only the parts that did not land", async () => {
    const { shown, sendPart } = platform(new Map([[2, () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })]]));
    const tracker = new SplitSendTracker();
    const parts = ["one", "two", "three"];
    const error = await tracker.send("reply:final:0", 3, sendPart(parts)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).deliveredMessageIds).toEqual(["m1"]);
    expect(isRetryableSendError(error)).toBe(true);
    const sent = await tracker.send("reply:final:0", 3, sendPart(parts));
    expect(sent).toEqual({ messageId: "m3", messageIds: ["m1", "m2", "m3"] });
    expect(shown).toEqual(parts);
  });

  it("keeps a rate limit a RateLimitedError (the chat must pause), with the parts that landed", async () => {
    const { sendPart } = platform(new Map([[2, () => new RateLimitedError("429", 2000)]]));
    const error = await new SplitSendTracker().send("k", 2, sendPart(["a", "b"])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 2000, deliveredMessageIds: ["m1"] });
  });
});
