import { afterEach, describe, expect, it } from "vitest";
import { OPEN_DMS, startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const modelSaw = (harness: ChannelHarness): string => JSON.stringify(harness.model.requests.map((r) => r.body.messages));

describe("channels.<id>.maxInboundChars", () => {
  it("a message over the cap is answered with a notice in the chat, never by the model; shorter ones still reach it", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, maxInboundChars: 40 } });
    const sent = await h.platform.userSays({ sender: "u1", text: `please read this: ${"x".repeat(23)}` }); // 41 characters
    const view = await h.until("u1", (v) => v.messages.length === 1, "the too-long notice");
    expect(view.texts[0]).toBe(
      "Your message is too long, so it was not read: 41 characters, and the limit here is 40. Please send it in shorter parts.",
    );
    expect(view.messages[0]!.replyToMessageId).toBe(sent.messageId); // it quotes the message it is about
    expect(h.logs.some((l) => l.startsWith("warn") && l.includes("41 characters, over the limit of 40"))).toBe(true);

    h.model.enqueue([{ text: "Short and sweet." }]);
    await h.platform.userSays({ sender: "u1", text: "a short question" });
    await h.until("u1", (v) => v.texts.includes("Short and sweet."), "the answer to the short message");
    expect(h.model.requests).toHaveLength(1);
    expect(modelSaw(h)).toContain("a short question");
    expect(modelSaw(h)).not.toContain("please read this");
  });

  it("defaults to 16000 characters, and an account can set its own", async () => {
    h = await startChannelHarness({
      channel: { ...OPEN_DMS, accounts: { standard: {}, roomy: { maxInboundChars: 20_000 } } },
      accounts: ["standard", "roomy"],
    });
    const long = "y".repeat(16_001);
    await h.platform.userSays({ sender: "ann", text: long, bot: "standard" });
    const notice = await h.until("ann", (v) => v.messages.length === 1, "the too-long notice");
    expect(notice.texts[0]).toContain("16,001 characters, and the limit here is 16,000");

    h.model.enqueue([{ text: "Read it all." }]);
    await h.platform.userSays({ sender: "bob", text: long, bot: "roomy" });
    await h.until("bob", (v) => v.texts.includes("Read it all."), "the roomy account's answer");
    expect(h.model.requests).toHaveLength(1);
  });
});
