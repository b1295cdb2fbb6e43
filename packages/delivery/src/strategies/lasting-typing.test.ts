// Contract additions for platforms like Feishu: a typing indicator that lasts until cleared (a
// reaction), and a native stream that continues into further messages itself (no text limit).
import { describe, expect, it } from "vitest";
import { FakeClock } from "../__fixtures__/fake-clock.js";
import { FakePlatform, TARGET } from "../__fixtures__/fake-outbound.js";
import { prose } from "../__fixtures__/replies.js";
import {
  createDeliveryStrategy,
  InMemoryDeliveryLedger,
  SendBudget,
  type DeliveryPlanKind,
  type DeliveryStrategyOptions,
  type ReplyEvent,
} from "../index.js";

function setup(plan: DeliveryPlanKind, overrides: Partial<DeliveryStrategyOptions>, mode?: "replace") {
  const clock = new FakeClock();
  const platform = new FakePlatform(clock, mode ? { nativeStream: mode } : {});
  const cleared: Array<{ at: number; inReplyTo: string | undefined }> = [];
  platform.outbound.clearTyping = async (_target, options) => {
    cleared.push({ at: clock.now(), inReplyTo: options.inReplyTo });
  };
  const strategy = createDeliveryStrategy(plan, {
    outbound: platform.outbound,
    budget: new SendBudget({ clock, perChatRate: Number.POSITIVE_INFINITY, globalRate: Number.POSITIVE_INFINITY }),
    ledger: new InMemoryDeliveryLedger(),
    target: TARGET,
    inReplyTo: "in-1",
    chatKey: "chat-1",
    replyKey: "reply-1",
    channel: "fake",
    accountId: "default",
    textLimit: 100,
    editLimit: 100,
    minEditIntervalMs: 200,
    chunkMode: "length",
    block: {
      minChars: 100,
      maxChars: 200,
      breakPreference: "paragraph",
      coalesce: { minChars: 1, maxChars: 4096, idleMs: 0 },
      break: "text_end",
    },
    typing: true,
    signal: new AbortController().signal,
    log: { warn: () => undefined },
    clock,
    ...overrides,
  });
  const feed = async (events: ReplyEvent[]) => {
    for (const event of events) {
      strategy.onEvent(event);
      await clock.advance(10);
    }
  };
  return { clock, platform, strategy, feed, cleared };
}

describe("lasting typing indicator (typingPersists)", () => {
  it("is shown once, never renewed, and cleared after the final was sent", async () => {
    const { clock, platform, strategy, feed, cleared } = setup({ kind: "final" }, { typingPersists: true });
    await feed([{ type: "run_start" }]);
    await clock.advance(30_000);
    await feed([
      { type: "text_delta", text: "Done." },
      { type: "final", text: "Done.", silent: false },
    ]);
    await clock.run(strategy.finish());
    expect(platform.count("typing")).toBe(1);
    expect(platform.visible()).toEqual(["Done."]);
    expect(cleared).toHaveLength(1);
    expect(cleared[0]!.inReplyTo).toBe("in-1");
    const sent = platform.calls.find((c) => c.op === "send")!;
    expect(cleared[0]!.at).toBeGreaterThanOrEqual(sent.at);
  });

  it("is cleared when the run ends without a reply", async () => {
    const { strategy, feed, cleared, clock } = setup({ kind: "final" }, { typingPersists: true });
    await feed([{ type: "run_start" }, { type: "run_end", status: "error" }]);
    await clock.run(strategy.finish());
    expect(cleared).toHaveLength(1);
  });
});

describe("native stream without a text limit (nativeStreamLimit: Infinity)", () => {
  it("keeps the whole reply in the stream, past textLimit, with no ordinary messages", async () => {
    const { platform, strategy, feed, clock } = setup(
      { kind: "native" },
      { nativeStreamLimit: Number.POSITIVE_INFINITY, nativeStream: "replace" },
      "replace",
    );
    const text = prose(500, 3);
    const cuts = [0, 100, 250, 400, 500];
    const deltas = cuts.slice(1).map((end, k) => ({ type: "text_delta" as const, text: text.slice(cuts[k], end) }));
    await feed([{ type: "run_start" }, ...deltas]);
    await feed([{ type: "final", text, silent: false }]);
    await clock.run(strategy.finish());
    expect(platform.count("send")).toBe(0);
    expect(platform.count("finish")).toBe(1);
    expect(platform.visible()).toEqual([text]);
  });
});
