import { PermanentSendError, TransientSendError } from "@openclaw/plugin-sdk";
import { describe, expect, it } from "vitest";
import { FakeClock } from "./__fixtures__/fake-clock.js";
import { FakePlatform, TARGET, nonPrefixHistory, reassemblyError } from "./__fixtures__/fake-outbound.js";
import { prose } from "./__fixtures__/replies.js";
import { InMemoryDeliveryLedger, NativeStreamController, SendBudget, type NativeStreamControllerOptions } from "./index.js";

function setup(mode: "replace" | "append", options: Partial<NativeStreamControllerOptions> = {}) {
  const clock = new FakeClock();
  const platform = new FakePlatform(clock, { nativeStream: mode });
  const ledger = new InMemoryDeliveryLedger();
  const budget = new SendBudget({ clock, transientBackoffMs: 100 });
  const make = (overrides: Partial<NativeStreamControllerOptions> = {}) =>
    new NativeStreamController({
      outbound: platform.outbound,
      target: TARGET,
      budget,
      chatKey: "chat-1",
      mode,
      ledger,
      ledgerKey: "reply-1:final",
      textLimit: 4096,
      throttleMs: 500,
      format: "markdown",
      idempotencyKey: "reply-1:stream",
      signal: new AbortController().signal,
      inReplyTo: "in-1",
      clock,
      ...options,
      ...overrides,
    });
  return { clock, platform, ledger, make, stream: make(), t0: clock.now() };
}

/** Feeds `text` in slices of `step` characters, `everyMs` simulated ms apart. */
async function feed(clock: FakeClock, stream: NativeStreamController, text: string, step = 20, everyMs = 50): Promise<void> {
  for (let end = step; end < text.length + step; end += step) {
    stream.update(text.slice(0, Math.min(end, text.length)));
    await clock.advance(everyMs);
  }
}

const ops = (platform: FakePlatform, op: string) => platform.calls.filter((c) => c.op === op && c.ok);

describe("NativeStreamController", () => {
  it("replace: opens with the first text, paces updates carrying the whole text so far, finishes in the stream", async () => {
    const { clock, platform, ledger, stream, t0 } = setup("replace");
    const text = prose(600, 3);
    await feed(clock, stream, text);
    const result = await clock.run(stream.finalize(text));

    expect(result).toEqual({ messageIds: ["m1"], via: "stream" });
    expect(platform.visible()).toEqual([text]);
    expect(ops(platform, "open")).toHaveLength(1);
    expect(ops(platform, "send")).toHaveLength(0);
    const updates = ops(platform, "update");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThan(600 / 20);
    for (const update of updates) expect(text.startsWith(update.text!)).toBe(true);
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(500);
    expect(updates[0]!.at - t0).toBeLessThan(100);
    expect(platform.calls.every((c) => c.inReplyTo === "in-1")).toBe(true);
    expect(ledger.parts("reply-1:final")).toEqual([["m1"]]);
  });

  it("append: every update carries only the new text; the stream ends holding the final exactly once", async () => {
    const { clock, platform, stream } = setup("append");
    const text = prose(600, 5);
    await feed(clock, stream, text);
    await clock.run(stream.finalize(text));
    const pieces = platform.calls.filter((c) => (c.op === "update" || c.op === "finish") && c.ok).map((c) => c.text!);
    expect(pieces.join("")).toBe(text);
    expect(pieces.filter((p) => p === "")).toHaveLength(0);
    expect(platform.visible()).toEqual([text]);
  });

  it("a final that outgrows one message continues in new messages from where the stream stopped", async () => {
    for (const mode of ["replace", "append"] as const) {
      const { clock, platform, stream } = setup(mode, { textLimit: 300 });
      const text = prose(1000, 7);
      await feed(clock, stream, text, 40);
      const result = await clock.run(stream.finalize(text));
      expect(result.via).toBe("stream");
      expect(result.messageIds.length).toBeGreaterThanOrEqual(4);
      const visible = platform.visible();
      expect(reassemblyError(visible, text), mode).toBeNull();
      for (const message of visible) expect(message.length).toBeLessThanOrEqual(300);
      expect(nonPrefixHistory(platform.messages), mode).toBeNull();
    }
  });

  it("falls back to ordinary messages when the stream cannot be opened", async () => {
    const { clock, platform, stream } = setup("replace");
    platform.failNext("open", () => new PermanentSendError("stream_messages is not enabled for this bot"));
    const text = prose(300, 9);
    await feed(clock, stream, text);
    const result = await clock.run(stream.finalize(text));
    expect(result.via).toBe("messages");
    expect(result.fallback).toMatch(/could not be opened.*not enabled/);
    expect(platform.visible()).toEqual([text]);
    expect(ops(platform, "open")).toHaveLength(0);
    expect(ops(platform, "send").map((c) => c.priority)).toEqual(["final"]);
  });

  it("retries a transient failure to open, and streams", async () => {
    const { clock, platform, stream } = setup("replace");
    platform.failNext("open", () => new TransientSendError("HTTP 502 from the platform"));
    const text = prose(300, 11);
    await feed(clock, stream, text);
    const result = await clock.run(stream.finalize(text));
    expect(result.via).toBe("stream");
    expect(platform.visible()).toEqual([text]);
  });

  it("falls back when the stream cannot be finished: the final arrives once, as a new message", async () => {
    const { clock, platform, stream } = setup("replace");
    const text = prose(300, 13);
    await feed(clock, stream, text);
    platform.failNext("finish", () => new PermanentSendError("stream expired"));
    const result = await clock.run(stream.finalize(text));
    expect(result.via).toBe("messages");
    expect(result.fallback).toMatch(/could not be finished.*expired/);
    expect(ops(platform, "abort")).toHaveLength(1);
    expect(ops(platform, "send").map((c) => c.text)).toEqual([text]);
  });

  it("an append update that fails stops the updates; the final still finishes the stream without repeating", async () => {
    const { clock, platform, stream } = setup("append");
    const text = prose(600, 17);
    await feed(clock, stream, text.slice(0, 200));
    platform.failNext("update", () => new TransientSendError("timeout"));
    await feed(clock, stream, text);
    const updatesAfterFailure = platform.calls.filter((c) => c.op === "update").length;
    const result = await clock.run(stream.finalize(text));
    expect(result.via).toBe("stream");
    expect(platform.calls.filter((c) => c.op === "update")).toHaveLength(updatesAfterFailure);
    expect(platform.visible()).toEqual([text]);
  });

  it("the ledger keeps a restarted delivery from sending the final again", async () => {
    const { clock, platform, stream, make } = setup("replace");
    const text = prose(200, 19);
    await feed(clock, stream, text);
    await clock.run(stream.finalize(text));
    const calls = platform.calls.length;
    const again = make();
    await feed(clock, again, text);
    const result = await clock.run(again.finalize(text));
    expect(result).toEqual({ messageIds: ["m1"], via: "ledger" });
    expect(platform.visible()).toEqual([text]);
    expect(platform.calls.slice(calls).filter((c) => c.op === "send" || c.op === "finish")).toEqual([]);
  });

  it("abort ends the open stream and sends nothing more", async () => {
    const { clock, platform, stream } = setup("replace");
    await feed(clock, stream, prose(200, 23));
    const before = platform.calls.length;
    stream.abort("the run failed");
    stream.update(prose(400, 23));
    await clock.advance(5000);
    expect(platform.calls.slice(before).map((c) => c.op)).toEqual(["abort"]);
  });
});
