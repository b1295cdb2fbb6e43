import { describe, expect, it } from "vitest";
import { FakeClock } from "./__fixtures__/fake-clock.js";
import { FakePlatform, TARGET, nonPrefixHistory, reassemblyError, type FakeOutboundOptions } from "./__fixtures__/fake-outbound.js";
import { prose, stream } from "./__fixtures__/replies.js";
import { PreviewController, SendBudget, type PreviewControllerOptions, type SendBudgetOptions } from "./index.js";

interface Setup {
  platform?: FakeOutboundOptions;
  budget?: SendBudgetOptions;
  preview?: Partial<PreviewControllerOptions>;
}

function setup(options: Setup = {}) {
  const clock = new FakeClock();
  const platform = new FakePlatform(clock, options.platform);
  const budget = new SendBudget({ clock, ...options.budget });
  const run = new AbortController();
  const preview = new PreviewController({
    outbound: platform.outbound,
    target: TARGET,
    budget,
    chatKey: "chat-1",
    textLimit: 4096,
    format: "markdown",
    idempotencyKey: "run-1",
    signal: run.signal,
    clock,
    ...options.preview,
  });
  return { clock, platform, budget, preview, run, t0: clock.now() };
}

/** Preview sends and edits, in order. */
function previewOps(platform: FakePlatform) {
  return platform.calls.filter((c) => c.priority === "preview");
}

describe("PreviewController", () => {
  it("waits for minInitialChars, and sends a reply that never got a preview normally", async () => {
    const { clock, platform, preview } = setup();
    preview.update("Hello");
    await clock.advance(2000);
    expect(platform.calls).toHaveLength(0);
    const result = await clock.run(preview.finalize("Hello there, the whole answer."));
    expect(platform.calls.map((c) => `${c.op}:${c.priority}`)).toEqual(["send:final"]);
    expect(platform.visible()).toEqual(["Hello there, the whole answer."]);
    expect(result.messageIds).toEqual(["m1"]);
  });

  it("paces edits to about one per second for a 4000-character reply streamed at 50 chars per 50 ms", async () => {
    const { clock, platform, preview, t0 } = setup();
    const text = prose(4000);
    await stream(clock, preview, text);
    const result = await clock.run(preview.finalize(text));
    const ops = previewOps(platform);
    const perSecond = new Map<number, number>();
    for (const op of ops) perSecond.set(Math.floor((op.at - t0) / 1000), (perSecond.get(Math.floor((op.at - t0) / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBe(1);
    expect(ops.length).toBeGreaterThanOrEqual(4);
    expect(ops.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < ops.length; i++) expect(ops[i]!.at - ops[i - 1]!.at).toBeGreaterThanOrEqual(1000);
    // Finalized in place: one message, edited to the final text (unless the trailing edit already showed it).
    expect(platform.visible()).toEqual([text]);
    expect(platform.count("send")).toBe(1);
    expect(platform.calls.filter((c) => c.priority === "final" && c.op !== "edit")).toEqual([]);
    expect(result.messageIds).toEqual(["m1"]);
  });

  it("finalEditAfterPreview: every preview message ends with a final edit, also one already showing its final text", async () => {
    for (const finalEditAfterPreview of [false, true]) {
      const { clock, platform, preview } = setup({ preview: { textLimit: 400, editLimit: 400, finalEditAfterPreview } });
      const text = prose(1000, 11);
      await stream(clock, preview, text);
      await clock.advance(3000); // the previews catch up: every message already shows its final text
      const shownBefore = platform.visible();
      const result = await clock.run(preview.finalize(text));
      expect(platform.visible()).toEqual(shownBefore);
      const finalEdits = platform.calls.filter((c) => c.priority === "final" && c.op === "edit").map((c) => c.messageId);
      // Without it, nothing changes and nothing is sent; with it, each message gets one final edit.
      expect(finalEdits).toEqual(finalEditAfterPreview ? result.messageIds : []);
      expect(platform.count("send")).toBe(result.messageIds.length);
    }
  });

  it("continues in a new message at the edit limit without repeating or losing text", async () => {
    const { clock, platform, preview } = setup({ preview: { textLimit: 400, editLimit: 400 } });
    const text = prose(3000, 7);
    await stream(clock, preview, text);
    const result = await clock.run(preview.finalize(text));
    const visible = platform.visible();
    expect(visible.length).toBeGreaterThanOrEqual(8);
    expect(visible.every((m) => m.length <= 400)).toBe(true);
    expect(reassemblyError(visible, text)).toBeNull();
    expect(nonPrefixHistory(platform.messages)).toBeNull();
    expect(platform.count("delete")).toBe(0);
    expect(result.messageIds).toEqual(platform.messages.map((m) => m.id));
  });

  it("delivers the final exactly once and complete through a 429 storm, with no edit after it", async () => {
    const { clock, platform, preview } = setup({ preview: { textLimit: 500, editLimit: 500 } });
    const text = prose(2500, 3);
    await stream(clock, preview, text.slice(0, 800));
    platform.stormUntil = clock.now() + 6000; // every call answers 429 for the next 6 s
    await stream(clock, preview, text);
    const finalize = preview.finalize(text); // still inside the storm
    const result = await clock.run(finalize);
    expect(platform.count("send", false) + platform.count("edit", false)).toBeGreaterThan(0);
    expect(reassemblyError(platform.visible(), text)).toBeNull();
    expect(nonPrefixHistory(platform.messages)).toBeNull();
    expect(result.messageIds).toEqual(platform.messages.filter((m) => !m.deleted).map((m) => m.id));
    const firstFinal = platform.calls.findIndex((c) => c.priority === "final");
    expect(platform.calls.slice(firstFinal).every((c) => c.priority === "final")).toBe(true);
    const calls = platform.calls.length;
    preview.update(`${text} and more`);
    await clock.advance(10_000);
    expect(platform.calls.length).toBe(calls);
  });

  it("falls back to a normal send and deletes the stale preview when the platform refuses the edit", async () => {
    const { clock, platform, preview } = setup();
    const text = prose(900, 5);
    preview.update(text.slice(0, 100));
    await clock.advance(0);
    expect(platform.count("send")).toBe(1);
    platform.refuseEdits = true;
    await stream(clock, preview, text, 100, 200);
    const result = await clock.run(preview.finalize(text));
    expect(platform.visible()).toEqual([text]);
    expect(platform.messages.map((m) => m.deleted)).toEqual([true, false]);
    expect(result.messageIds).toEqual(["m2"]);
    // Once an edit is refused, the preview stops trying until the final.
    expect(platform.calls.filter((c) => c.op === "edit" && c.priority === "preview")).toHaveLength(1);
  });

  it("keeps frozen messages when the final differs from them, and sends what is missing", async () => {
    const { clock, platform, preview } = setup({ preview: { textLimit: 300, editLimit: 300 } });
    const streamed = prose(1200, 11);
    await stream(clock, preview, streamed);
    await clock.advance(2000);
    const frozen = platform.messages.length - 1;
    expect(frozen).toBeGreaterThanOrEqual(2);
    const final = `Actually: ${streamed.slice(10)}`;
    await clock.run(preview.finalize(final));
    expect(platform.count("delete")).toBe(0);
    const visible = platform.visible();
    expect(reassemblyError(visible.slice(frozen), final)).toBeNull();
    // The frozen messages were not touched by the final.
    expect(platform.calls.filter((c) => c.priority === "final" && c.op === "edit").map((c) => c.messageId)).toEqual([`m${frozen + 1}`]);
  });

  it("on a channel that cannot edit, shows nothing until the final and then sends it in chunks", async () => {
    const { clock, platform, preview } = setup({ platform: { canEdit: false }, preview: { textLimit: 1000 } });
    const text = prose(2600, 2);
    await stream(clock, preview, text);
    expect(platform.calls).toHaveLength(0);
    await clock.run(preview.finalize(text));
    expect(platform.calls.every((c) => c.op === "send" && c.priority === "final")).toBe(true);
    expect(reassemblyError(platform.visible(), text)).toBeNull();
  });

  it("abort stops pending edits and leaves what was shown", async () => {
    const { clock, platform, preview, run } = setup();
    const text = prose(1000, 4);
    await stream(clock, preview, text.slice(0, 300));
    const before = platform.calls.length;
    expect(before).toBeGreaterThan(0);
    run.abort();
    await stream(clock, preview, text);
    await clock.advance(5000);
    expect(platform.calls.length).toBe(before);
    expect(platform.count("delete")).toBe(0);
    await expect(preview.finalize(text)).rejects.toThrow();
  });

  it("rolls a long code block over with the fence closed and reopened, content once", async () => {
    const { clock, platform, preview } = setup({ preview: { textLimit: 300, editLimit: 300 } });
    const code = Array.from({ length: 40 }, (_, i) => `const value${i} = compute(${i}); // step ${i}`).join("\n");
    const text = `Here is the code:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat is all.`;
    await stream(clock, preview, text, 40, 50);
    await clock.run(preview.finalize(text));
    const visible = platform.visible();
    expect(visible.length).toBeGreaterThanOrEqual(6);
    for (const message of visible) {
      expect(message.length).toBeLessThanOrEqual(300);
      expect((message.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    const content = (s: string) => s.replace(/^```.*$/gm, "").replace(/\s+/g, "");
    expect(content(visible.join("\n"))).toBe(content(text));
    expect(nonPrefixHistory(platform.messages)).toBeNull();
  });

  it("returns the same delivery when finalize is called twice", async () => {
    const { clock, platform, preview } = setup();
    const text = prose(200);
    await stream(clock, preview, text);
    const [a, b] = await clock.run(Promise.all([preview.finalize(text), preview.finalize(text)]));
    expect(a).toEqual(b);
    expect(platform.calls.filter((c) => c.priority === "final")).toHaveLength(1);
  });
});
