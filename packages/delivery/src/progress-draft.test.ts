import { describe, expect, it } from "vitest";
import { FakeClock } from "./__fixtures__/fake-clock.js";
import { FakePlatform, TARGET } from "./__fixtures__/fake-outbound.js";
import { ProgressDraft, SendBudget, type ProgressDraftOptions } from "./index.js";

function setup(options: Partial<ProgressDraftOptions> = {}, canEdit = true) {
  const clock = new FakeClock();
  const platform = new FakePlatform(clock, { canEdit });
  const draft = new ProgressDraft({
    outbound: platform.outbound,
    target: TARGET,
    budget: new SendBudget({ clock }),
    chatKey: "chat",
    format: "plain",
    idempotencyKey: "run",
    signal: new AbortController().signal,
    clock,
    ...options,
  });
  return { clock, platform, draft };
}

describe("ProgressDraft", () => {
  it("lists tool activity under a label, edits it at a paced rate, and deletes it on clear", async () => {
    const { clock, platform, draft } = setup();
    draft.toolStart("1", "exec: ls -la");
    await clock.advance(0);
    expect(platform.visible()).toEqual(["Working…\n• exec: ls -la"]);
    draft.toolEnd("1");
    draft.toolStart("2", "web_fetch https://example.com");
    draft.toolEnd("2", false);
    await clock.advance(100);
    expect(platform.count("edit")).toBe(0); // paced: at most one edit per second
    await clock.advance(1000);
    expect(platform.visible()).toEqual(["Working…\n✓ exec: ls -la\n✗ web_fetch https://example.com"]);
    await clock.run(draft.clear());
    expect(platform.visible()).toEqual([]);
    draft.toolStart("3", "late");
    await clock.advance(5000);
    expect(platform.count("send")).toBe(1);
  });

  it("keeps the newest maxLines lines, cuts long ones, and honours label false", () => {
    const { draft } = setup({ maxLines: 2, maxLineChars: 10, label: false });
    draft.toolStart("a", "first");
    draft.toolStart("b", "second line that is long");
    draft.toolStart("c", "third\nline");
    expect(draft.render()).toBe("• second li…\n• third line");
  });

  it("does nothing on a channel that cannot edit", async () => {
    const { clock, platform, draft } = setup({}, false);
    draft.toolStart("1", "exec");
    await clock.advance(3000);
    await draft.clear();
    expect(platform.calls).toEqual([]);
  });
});
