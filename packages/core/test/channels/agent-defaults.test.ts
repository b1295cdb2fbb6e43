// agents.defaults keys that shape delivery: typingMode and humanDelay, through the whole pipeline.
import { afterEach, expect, it } from "vitest";
import { startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const typingCalls = (harness: ChannelHarness) => harness.platform.calls.filter((c) => c.op === "typing").length;

it('typingMode "never" sends no typing indicator; the default does', async () => {
  h = await startChannelHarness({ agentDefaults: { typingMode: "never" } });
  h.model.enqueue([{ text: "No typing here." }]);
  await h.platform.userSays({ sender: "u1", text: "hi" });
  await h.until("u1", (v) => v.texts.includes("No typing here."), "the reply");
  await h.settled();
  expect(typingCalls(h)).toBe(0);
  await h.cleanup();

  h = await startChannelHarness();
  h.model.enqueue([{ text: "Typing first." }]);
  await h.platform.userSays({ sender: "u1", text: "hi" });
  await h.until("u1", (v) => v.texts.includes("Typing first."), "the reply");
  await h.settled();
  expect(typingCalls(h)).toBeGreaterThan(0);
});

it("humanDelay custom pauses between block replies", async () => {
  h = await startChannelHarness({
    channel: {
      dmPolicy: "open",
      allowFrom: ["*"],
      streaming: { mode: "off", block: { enabled: true, coalesce: { minChars: 1, idleMs: 0 } } },
    },
    agentDefaults: { humanDelay: { mode: "custom", minMs: 400, maxMs: 400 }, blockStreamingChunk: { minChars: 10, maxChars: 40 } },
  });
  h.model.enqueue([{ text: "First block of text here.\n\n" }, { delayMs: 50 }, { text: "Second block of text here." }]);
  await h.platform.userSays({ sender: "u2", text: "blocks please" });
  await h.until("u2", (v) => v.messages.length >= 2, "two blocks");
  const sends = h.platform.calls.filter((c) => c.chatId === "u2" && c.op === "send");
  expect(sends.length).toBeGreaterThanOrEqual(2);
  expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(380);
});

it("a group's systemPrompt joins the system prompt of that group's session", async () => {
  h = await startChannelHarness({
    channel: {
      dmPolicy: "open",
      allowFrom: ["*"],
      groupPolicy: "open",
      groups: { team: { requireMention: false, systemPrompt: "Answer in haiku." } },
    },
  });
  h.model.enqueue([{ text: "Five seven five." }]);
  await h.platform.userSays({ chat: "team", kind: "group", sender: "ann", text: "status?", mentionsBot: false });
  await h.until("team", (v) => v.texts.includes("Five seven five."), "the answer");
  const system = h.model.requests[0]!.body.messages[0].content as string;
  expect(system).toContain("## Instructions for this chat\nAnswer in haiku.");
});
