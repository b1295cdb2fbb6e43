import { describe, expect, it } from "vitest";
import { FakeClock } from "../__fixtures__/fake-clock.js";
import { FakePlatform, TARGET, reassemblyError, type FakeOutboundOptions } from "../__fixtures__/fake-outbound.js";
import { prose } from "../__fixtures__/replies.js";
import {
  createDeliveryStrategy,
  InMemoryDeliveryLedger,
  SendBudget,
  type DeliveryPlanKind,
  type DeliveryStrategyOptions,
  type ReplyEvent,
  type SendBudgetOptions,
} from "../index.js";

function setup(
  plan: DeliveryPlanKind,
  overrides: Partial<DeliveryStrategyOptions> = {},
  platformOptions: FakeOutboundOptions = {},
  budgetOptions: SendBudgetOptions = {},
) {
  const clock = new FakeClock();
  const platform = new FakePlatform(clock, platformOptions);
  const budget = new SendBudget({ clock, perChatRate: Number.POSITIVE_INFINITY, globalRate: Number.POSITIVE_INFINITY, ...budgetOptions });
  const ledger = new InMemoryDeliveryLedger();
  const warnings: string[] = [];
  const strategy = createDeliveryStrategy(plan, {
    outbound: platform.outbound,
    budget,
    ledger,
    target: { ...TARGET, replyToMessageId: "in-1" },
    inReplyTo: "in-1",
    chatKey: "chat-1",
    replyKey: "reply-1",
    channel: "fake",
    accountId: "default",
    textLimit: 4096,
    editLimit: 4096,
    minEditIntervalMs: 1000,
    chunkMode: "length",
    // Blocks end at text_end (the chunker emits early only past minChars).
    block: {
      minChars: 100,
      maxChars: 200,
      breakPreference: "paragraph",
      coalesce: { minChars: 1, maxChars: 4096, idleMs: 0 },
      break: "text_end",
    },
    typing: true,
    signal: new AbortController().signal,
    log: { warn: (message) => warnings.push(message) },
    clock,
    random: () => 0.5,
    ...overrides,
  });
  /** Feeds events, letting simulated time pass between them. */
  const feed = async (events: ReplyEvent[], gapMs = 10): Promise<void> => {
    for (const event of events) {
      strategy.onEvent(event);
      await clock.advance(gapMs);
    }
  };
  return { clock, platform, ledger, strategy, feed, warnings, t0: clock.now() };
}

const deltas = (...texts: string[]): ReplyEvent[] => texts.map((text) => ({ type: "text_delta", text }));
const final = (text: string): ReplyEvent => ({ type: "final", text, silent: false });

describe("delivery strategies", () => {
  it("final: typing from the run's start, renewed every 5 s until the final, which is sent once with inReplyTo", async () => {
    const { clock, platform, strategy, feed, t0 } = setup({ kind: "final" });
    await feed([{ type: "run_start" }]);
    await clock.advance(11_000);
    await feed([...deltas("The whole ", "answer."), final("The whole answer.")]);
    const outcome = await clock.run(strategy.finish());
    await clock.advance(20_000);

    expect(platform.calls.filter((c) => c.op === "typing").map((c) => c.at - t0)).toEqual([0, 5000, 10_000]);
    expect(platform.visible()).toEqual(["The whole answer."]);
    expect(platform.calls.every((c) => c.inReplyTo === "in-1")).toBe(true);
    expect(outcome).toMatchObject({
      kind: "final",
      status: "delivered",
      messageIds: ["m1"],
      counts: { sends: 1, edits: 0, deletes: 0, typing: 3 },
      errors: [],
    });
  });

  it('typingMode "message" starts typing with the first text; "never" sends none', async () => {
    const message = setup({ kind: "final" }, { typingMode: "message" });
    await message.feed([{ type: "run_start" }, ...deltas("Hi"), final("Hi")]);
    await message.clock.run(message.strategy.finish());
    expect(message.platform.calls.map((c) => c.op)).toEqual(["typing", "send"]);
    expect(message.platform.calls[0]!.at - message.t0).toBe(10);

    const never = setup({ kind: "final" }, { typingMode: "never" });
    await never.feed([{ type: "run_start" }, ...deltas("Hi"), final("Hi")]);
    await never.clock.run(never.strategy.finish());
    expect(never.platform.count("typing")).toBe(0);
  });

  it("blocks: each block leaves as it completes, humanDelay (with the injected random) between them", async () => {
    const { clock, platform, strategy, feed } = setup({ kind: "blocks" }, { humanDelay: { minMs: 100, maxMs: 300 }, typing: false });
    await feed([...deltas("The first paragraph of the answer.\n\n"), { type: "text_end" }], 50);
    expect(platform.visible().map((t) => t.trim())).toEqual(["The first paragraph of the answer."]);
    await feed([...deltas("The second paragraph."), { type: "text_end" }, final("The second paragraph.")]);
    const outcome = await clock.run(strategy.finish());
    const sends = platform.calls.filter((c) => c.op === "send");
    expect(platform.visible().map((t) => t.trim())).toEqual(["The first paragraph of the answer.", "The second paragraph."]);
    // 100 + 0.5 * (300 - 100) ms after the block was ready.
    expect(sends[1]!.at - sends[0]!.at).toBe(60 + 200);
    expect(sends.map((c) => c.priority)).toEqual(["block", "block"]);
    expect(outcome).toMatchObject({ kind: "blocks", status: "delivered", messageIds: ["m1", "m2"] });
  });

  it('replyToMode: "first" quotes the first message only, "all" every one, "off" none', async () => {
    const quoted = async (replyToMode: "first" | "all" | "off") => {
      const { clock, platform, strategy, feed } = setup({ kind: "blocks" }, { replyToMode, typing: false });
      await feed([...deltas("One block here.\n\n"), { type: "text_end" }, ...deltas("Another block."), final("Another block.")], 20);
      await clock.run(strategy.finish());
      return platform.calls.filter((c) => c.op === "send").map((c) => c.replyTo ?? null);
    };
    expect(await quoted("first")).toEqual(["in-1", null]);
    expect(await quoted("all")).toEqual(["in-1", "in-1"]);
    expect(await quoted("off")).toEqual([null, null]);
  });

  it("preview: running tools show under the preview; the message before the tools is finalized in place", async () => {
    const { clock, platform, strategy, feed } = setup({ kind: "preview", mode: "partial" }, { typing: false });
    const first = "Let me look that up for you in the documentation.";
    await feed(deltas(first), 1100);
    await feed([{ type: "text_end" }, { type: "tool_start", callId: "c1", name: "web_fetch", args: {} }], 1100);
    expect(platform.visible()).toEqual([`${first}\n\n⏳ web_fetch…`]);
    const answer = "The documentation says the limit is 4096 characters.";
    await feed([{ type: "tool_end", callId: "c1", isError: false }, ...deltas(answer), final(answer)], 1100);
    const outcome = await clock.run(strategy.finish());
    expect(platform.visible()).toEqual([first, answer]);
    expect(outcome).toMatchObject({ kind: "preview", status: "delivered", messageIds: ["m1", "m2"] });
    expect(outcome.counts.edits).toBeGreaterThanOrEqual(1);
  });

  it("progress: the status draft lists the tools and is deleted after the final; the outcome names only the reply", async () => {
    const { clock, platform, strategy, feed } = setup(
      { kind: "preview", mode: "progress" },
      { typing: false, progress: { labels: ["Working…", "On it…"] } },
    );
    await feed([{ type: "tool_start", callId: "c1", name: "exec", args: { cmd: "ls" } }], 1100);
    expect(platform.visible()).toEqual(['On it…\n• exec {"cmd":"ls"}']);
    await feed([{ type: "tool_end", callId: "c1", isError: false }, ...deltas("Done."), final("Done.")], 1100);
    const outcome = await clock.run(strategy.finish());
    expect(platform.visible()).toEqual(["Done."]);
    expect(outcome).toMatchObject({ kind: "progress", messageIds: ["m2"], counts: { deletes: 1 } });
  });

  it("native: one stream per reply, the messages before tool calls joined in it; the final finishes it", async () => {
    const { clock, platform, strategy, feed } = setup(
      { kind: "native" },
      { typing: false, nativeStream: "append" },
      { nativeStream: "append" },
    );
    await feed([...deltas("Let me check.")], 1100);
    await feed([
      { type: "text_end" },
      { type: "tool_start", callId: "c1", name: "exec", args: {} },
      { type: "tool_end", callId: "c1", isError: false },
    ]);
    await feed([...deltas("It is ", "42."), final("It is 42.")], 1100);
    const outcome = await clock.run(strategy.finish());
    expect(platform.visible()).toEqual(["Let me check.\n\nIt is 42."]);
    expect(platform.count("open")).toBe(1);
    expect(outcome).toMatchObject({ kind: "native", status: "delivered", messageIds: ["m1"], fallbacks: [] });
    expect(outcome.counts.streamUpdates).toBeGreaterThanOrEqual(1);
  });

  it("native: a stream that cannot be opened falls back to an ordinary final, reported in the outcome", async () => {
    const { clock, platform, strategy, feed } = setup({ kind: "native" }, { typing: false }, { nativeStream: "replace" });
    platform.failNext("open", () => Object.assign(new Error("stream_messages forbidden"), { name: "PermanentSendError" }));
    await feed([...deltas("The answer is here."), final("The answer is here.")], 1100);
    const outcome = await clock.run(strategy.finish());
    expect(platform.visible()).toEqual(["The answer is here."]);
    expect(outcome.fallbacks).toEqual([expect.stringMatching(/could not be opened \(stream_messages forbidden\)/)]);
    expect(outcome.status).toBe("delivered");
  });

  describe("blocks under a reply quota of 5 per inbound message", () => {
    const quota = { replyQuota: { perInbound: 5, windowMs: 3_600_000 } };
    /** Streams `text` in 100-character deltas, 50 ms apart, then the final. */
    const stream = (text: string): ReplyEvent[] => [
      { type: "run_start" },
      ...Array.from(
        { length: Math.ceil(text.length / 100) },
        (_, i): ReplyEvent => ({ type: "text_delta", text: text.slice(i * 100, i * 100 + 100) }),
      ),
      { type: "text_end" },
      final(text),
    ];
    const spent = (platform: FakePlatform) =>
      platform.calls.filter((c) => c.ok && c.inReplyTo === "in-1" && (c.op === "send" || c.op === "typing"));

    it("typing and the first blocks leave; the rest is held and arrives whole with the final", async () => {
      const { clock, platform, strategy, feed } = setup({ kind: "blocks" }, {}, {}, quota);
      const text = prose(2000, 29);
      await feed(stream(text), 50);
      const outcome = await clock.run(strategy.finish());
      expect(reassemblyError(platform.visible(), text)).toBeNull();
      expect(spent(platform).length).toBeLessThanOrEqual(5);
      expect(platform.calls.filter((c) => c.op === "send").map((c) => c.priority)).toEqual(["block", "block", "final"]);
      expect(outcome.errors).toEqual([]);
    });

    it("as the replies run short, blocks merge into full messages", async () => {
      const { clock, platform, strategy, feed } = setup({ kind: "blocks" }, { textLimit: 700, typing: false }, {}, quota);
      const text = prose(1500, 31);
      await feed(stream(text), 50);
      await clock.run(strategy.finish());
      const visible = platform.visible();
      expect(reassemblyError(visible, text)).toBeNull();
      expect(spent(platform).length).toBeLessThanOrEqual(5);
      for (const message of visible) expect(message.length).toBeLessThanOrEqual(700);
      // The last spare reply carried a full message rather than one 200-character block.
      expect(Math.max(...visible.map((m) => m.length))).toBeGreaterThan(500);
    });
  });

  it("NO_REPLY sends nothing and no preview ever shows the token", async () => {
    const { clock, platform, strategy, feed } = setup({ kind: "preview", mode: "partial" }, { typing: false });
    await feed([...deltas("NO_", "REPLY"), { type: "final", text: "", silent: true }], 1100);
    const outcome = await clock.run(strategy.finish());
    expect(platform.calls).toEqual([]);
    expect(outcome).toMatchObject({ status: "silent", messageIds: [] });
  });

  it("a reply that ends without a final stops its preview and typing and reports aborted", async () => {
    const { clock, platform, strategy, feed } = setup({ kind: "preview", mode: "partial" });
    await feed([{ type: "run_start" }, ...deltas("A reply that starts, and then the run is cancelled.")], 1100);
    const before = platform.calls.length;
    await feed([{ type: "run_end", status: "aborted" }]);
    const outcome = await clock.run(strategy.finish());
    await clock.advance(20_000);
    expect(platform.calls.length).toBe(before);
    expect(outcome.status).toBe("aborted");
  });

  it("a final that cannot be sent is reported as failed, with the error", async () => {
    const { clock, platform, strategy, feed, warnings } = setup({ kind: "final" }, { typing: false });
    platform.failNext("send", () => Object.assign(new Error("Bad Request: chat not found"), { name: "PermanentSendError" }));
    await feed([final("Hello?")]);
    const outcome = await clock.run(strategy.finish());
    expect(outcome.status).toBe("failed");
    expect(outcome.errors).toEqual(["Bad Request: chat not found"]);
    expect(warnings).toEqual(["delivery failed: Bad Request: chat not found"]);
  });
});
