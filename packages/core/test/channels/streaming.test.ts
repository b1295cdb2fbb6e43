import { PermanentSendError } from "@openclaw/plugin-sdk";
import { prose, reassemblyError } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { OPEN_DMS, startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Calls the bot made to `chatId` (typing excluded). */
const callsTo = (harness: ChannelHarness, chatId: string) => harness.platform.calls.filter((c) => c.chatId === chatId && c.op !== "typing");

describe("reply delivery through the gateway", () => {
  it("partial preview (the default): one message, edited in place, ending as exactly the final text", async () => {
    h = await startChannelHarness();
    const first = "Here is a fairly detailed answer to your question";
    const rest = ", and this is how it ends.";
    h.model.enqueue([{ text: first, chunkChars: 60 }, { delayMs: 300 }, { text: rest }]);
    await h.platform.userSays({ sender: "u1", text: "tell me" });
    const during = await h.until("u1", (v) => v.messages.length === 1, "the preview");
    expect(h.model.requests[0]!.outcome).toBeUndefined(); // shown while the model was still writing
    expect(during.texts[0]).toBe(first);
    await h.until("u1", (v) => v.texts[0] === first + rest, "the final text");
    await h.gateway.stop();

    const view = h.platform.chatView("u1");
    expect(view.texts).toEqual([first + rest]);
    expect(view.messages[0]!.edits).toBeGreaterThanOrEqual(1);
    expect(view.deleted).toEqual([]);
    const calls = callsTo(h, "u1");
    expect(calls.filter((c) => c.op === "send")).toHaveLength(1);
    expect(calls.filter((c) => c.priority === "final")).toHaveLength(1);
    expect(h.platform.duplicateSends()).toEqual([]);
    // Every call of the reply, typing included, says which message it answers; the first quotes nothing (replyToMode "off").
    const inbound = view.userMessages[0]!.messageId;
    expect(h.platform.calls.filter((c) => c.chatId === "u1").every((c) => c.inReplyTo === inbound)).toBe(true);
    expect(view.messages[0]!.replyToMessageId).toBeUndefined();
  });

  it("block replies (streaming.block.enabled): each block leaves as it completes; no duplicate final", async () => {
    h = await startChannelHarness({
      channel: { ...OPEN_DMS, streaming: { block: { enabled: true, coalesce: { minChars: 1, idleMs: 0 } } } },
      agentDefaults: { blockStreamingChunk: { minChars: 10, maxChars: 200 } },
    });
    const one = "The first paragraph of the answer.";
    const two = "The second paragraph, written after a pause.";
    h.model.enqueue([{ text: `${one}\n\n`, chunkChars: 100 }, { delayMs: 400 }, { text: two, chunkChars: 100 }]);
    await h.platform.userSays({ sender: "u1", text: "two paragraphs please" });
    await h.until("u1", (v) => v.messages.length === 1, "the first block");
    expect(h.model.requests[0]!.outcome).toBeUndefined(); // the model has not finished yet
    await h.until("u1", (v) => v.messages.length === 2, "the second block");
    await h.gateway.stop();

    expect(h.platform.chatView("u1").texts.map((t) => t.trim())).toEqual([one, two]);
    const calls = callsTo(h, "u1");
    expect(calls.map((c) => `${c.op}:${c.priority}`)).toEqual(["send:block", "send:block"]);
    expect(h.platform.duplicateSends()).toEqual([]);
  });

  it("block replies: a run that fails after some blocks still tells the user it failed", async () => {
    h = await startChannelHarness({
      channel: { ...OPEN_DMS, streaming: { block: { enabled: true, coalesce: { minChars: 1, idleMs: 0 } } } },
      agentDefaults: { blockStreamingChunk: { minChars: 10, maxChars: 200 } },
    });
    h.model.enqueue([{ text: "A first block that made it out.\n\n", chunkChars: 100 }, { delayMs: 100 }, { error: { status: 500 } }]);
    await h.platform.userSays({ sender: "u1", text: "go" });
    await h.until("u1", (v) => v.messages.length === 2, "the block and the failure notice");
    await h.gateway.stop();
    const texts = h.platform.chatView("u1").texts;
    expect(texts[0]!.trim()).toBe("A first block that made it out.");
    expect(texts[1]).toMatch(/^Sorry — the model provider failed/);
  });

  it("final only (streaming.mode off): the reply is sent exactly once, never edited", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, streaming: { mode: "off" } } });
    h.model.enqueue([{ text: "Just the final answer, in one go." }]);
    await h.platform.userSays({ sender: "u1", text: "hi" });
    await h.until("u1", (v) => v.messages.length === 1, "the reply");
    await h.gateway.stop();
    expect(h.platform.chatView("u1").texts).toEqual(["Just the final answer, in one go."]);
    expect(callsTo(h, "u1").map((c) => `${c.op}:${c.priority}:${c.ok}`)).toEqual(["send:final:true"]);
  });

  it("a per-chat override from the plugin (streamingFor) previews in one chat while the channel's mode is off", async () => {
    h = await startChannelHarness({
      channel: { ...OPEN_DMS, streaming: { mode: "off" } },
      // As Matrix's streaming.rooms.<roomId>: the account's streaming object with the chat's keys over it.
      streamingFor: (chat, account) =>
        chat.id === "u2" ? { ...(account.config.streaming as Record<string, unknown>), mode: "partial" } : undefined,
    });
    const first = "The start of an answer, shown while the model writes";
    const rest = ", and its end.";
    const reply = () => h!.model.enqueue([{ text: first, chunkChars: 60 }, { delayMs: 300 }, { text: rest }]);

    reply();
    await h.platform.userSays({ sender: "u1", text: "no preview here" });
    await h.until("u1", (v) => v.texts[0] === first + rest, "the reply in u1");
    await h.settled();
    reply();
    await h.platform.userSays({ sender: "u2", text: "a preview here" });
    const during = await h.until("u2", (v) => v.messages.length === 1, "the preview in u2");
    expect(h.model.requests[1]!.outcome).toBeUndefined(); // shown while the model was still writing
    expect(during.texts[0]).toBe(first);
    await h.until("u2", (v) => v.texts[0] === first + rest, "the final text in u2");
    await h.gateway.stop();

    expect(callsTo(h, "u1").map((c) => `${c.op}:${c.priority}`)).toEqual(["send:final"]);
    const u2 = callsTo(h, "u2");
    expect(u2[0]).toMatchObject({ op: "send", priority: "preview" });
    expect(u2.filter((c) => c.op === "send")).toHaveLength(1);
    expect(h.platform.chatView("u2").messages[0]!.edits).toBeGreaterThanOrEqual(1);
  });

  it("a reply over textChunkLimit is split into messages within the limit, nothing repeated", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, textChunkLimit: 300, streaming: { mode: "off" } } });
    const reply = prose(1100, 2, 250);
    h.model.enqueue([{ text: reply, chunkChars: 200 }]);
    await h.platform.userSays({ sender: "u1", text: "a long one" });
    await h.until("u1", (v) => reassemblyError(v.texts, reply) === null, "the whole reply");
    await h.gateway.stop();
    const view = h.platform.chatView("u1");
    expect(view.messages.length).toBeGreaterThanOrEqual(4);
    for (const m of view.messages) expect(m.text.length).toBeLessThanOrEqual(300);
    expect(h.platform.duplicateSends()).toEqual([]);
  });

  it("a long previewed reply rolls over at the limit: no message repeats text, none is deleted", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, textChunkLimit: 300 } });
    const reply = prose(1000, 4, 200);
    h.model.enqueue([
      { text: reply.slice(0, 350), chunkChars: 350 },
      { delayMs: 300 },
      { text: reply.slice(350, 700), chunkChars: 350 },
      { delayMs: 300 },
      { text: reply.slice(700), chunkChars: 350 },
    ]);
    await h.platform.userSays({ sender: "u1", text: "long, streamed" });
    await h.until("u1", (v) => reassemblyError(v.texts, reply) === null, "the whole reply");
    await h.gateway.stop();
    const view = h.platform.chatView("u1");
    expect(reassemblyError(view.texts, reply)).toBeNull();
    expect(view.deleted).toEqual([]);
    for (const m of view.messages) {
      expect(m.text.length).toBeLessThanOrEqual(300);
      for (const version of m.history) expect(m.text.startsWith(version.trimEnd())).toBe(true);
    }
  });

  for (const mode of ["replace", "append"] as const) {
    it(`native stream (${mode}): the reply grows in one stream message and ends as exactly the final`, async () => {
      h = await startChannelHarness({ capabilities: { nativeStream: mode } });
      const first = "A streamed answer that arrives in pieces";
      const rest = ", and then it ends.";
      h.model.enqueue([{ text: first, chunkChars: 60 }, { delayMs: 400 }, { text: rest }]);
      await h.platform.userSays({ sender: "u1", text: "stream it" });
      const during = await h.until("u1", (v) => v.messages.length === 1, "the stream");
      expect(during.messages[0]!.stream).toBe("streaming");
      await h.until("u1", (v) => v.messages[0]?.stream === "finished", "the finished stream");
      await h.gateway.stop();

      const view = h.platform.chatView("u1");
      expect(view.texts).toEqual([first + rest]);
      const calls = callsTo(h, "u1");
      expect(calls.filter((c) => c.op === "send")).toEqual([]);
      expect(calls.filter((c) => c.op === "stream-open")).toHaveLength(1);
      // Every call answers the user's message.
      const inbound = view.userMessages[0]!.messageId;
      expect(calls.every((c) => c.inReplyTo === inbound)).toBe(true);
      if (mode === "append") {
        const pieces = calls.filter((c) => c.op === "stream-update" || c.op === "stream-finish").map((c) => c.text);
        expect(pieces.join("")).toBe(first + rest);
      }
    });
  }

  it("native stream that cannot be opened: the reply arrives once, as an ordinary message", async () => {
    h = await startChannelHarness({ capabilities: { nativeStream: "replace" } });
    h.platform.failNext("stream-open", new PermanentSendError("Forbidden: streaming is not enabled for this bot", "forbidden"));
    h.model.enqueue([{ text: "The answer, delivered without a stream.", chunkChars: 10 }]);
    await h.platform.userSays({ sender: "u1", text: "hi" });
    await h.until("u1", (v) => v.messages.length === 1, "the reply");
    await h.gateway.stop();
    expect(h.platform.chatView("u1").texts).toEqual(["The answer, delivered without a stream."]);
    expect(callsTo(h, "u1").map((c) => `${c.op}:${c.priority}:${c.ok}`)).toEqual(["stream-open:block:false", "send:final:true"]);
  });

  it("a reply quota of 5 per message: a 4,000-character block-streamed reply arrives complete, within the quota, once", async () => {
    const replyQuota = { perInbound: 5, windowMs: 3_600_000 };
    h = await startChannelHarness({
      // Blocks of 300-500 characters, each sent as it completes: ten of them would need ten replies.
      channel: { ...OPEN_DMS, streaming: { block: { enabled: true, coalesce: { minChars: 1, maxChars: 500, idleMs: 0 } } } },
      agentDefaults: { blockStreamingChunk: { minChars: 300, maxChars: 500 } },
      capabilities: { replyQuota },
      platform: { replyQuota },
    });
    const reply = prose(4000, 8, 350);
    h.model.enqueue([{ text: reply, chunkChars: 200 }]);
    await h.platform.userSays({ sender: "u1", text: "a long answer, please" });
    await h.until("u1", (v) => reassemblyError(v.texts, reply) === null, "the whole reply");
    await h.gateway.stop();

    const view = h.platform.chatView("u1");
    expect(reassemblyError(view.texts, reply)).toBeNull();
    const inbound = view.userMessages[0]!.messageId;
    const answering = h.platform.calls.filter((c) => c.chatId === "u1" && c.inReplyTo === inbound);
    expect(answering.filter((c) => !c.ok)).toEqual([]); // nothing refused, nothing dropped on the platform
    expect(answering.filter((c) => c.op === "send" || c.op === "typing").length).toBeLessThanOrEqual(5);
    // Blocks still left as they completed until the replies ran short; the final carried the rest.
    expect(answering.filter((c) => c.op === "send").map((c) => c.priority)).toEqual(["block", "block", "final"]);
    expect(h.platform.duplicateSends()).toEqual([]);
  });

  it("a 429 storm during a preview still ends in exactly one final, with no edit after it", async () => {
    h = await startChannelHarness();
    const parts = ["The answer starts out like this, quite long already", " and continues after the storm began", " and finally ends."];
    h.model.enqueue([
      { text: parts[0]!, chunkChars: 100 },
      { delayMs: 300 },
      { text: parts[1]!, chunkChars: 100 },
      { delayMs: 300 },
      { text: parts[2]! },
    ]);
    await h.platform.userSays({ sender: "u1", text: "go" });
    await h.until("u1", (v) => v.messages.length === 1, "the preview");
    h.platform.rateLimit(3, 200);
    const final = parts.join("");
    await h.until("u1", (v) => v.texts[0] === final, "the final text");
    await h.gateway.stop();

    const view = h.platform.chatView("u1");
    expect(view.texts).toEqual([final]);
    const calls = callsTo(h, "u1");
    const finals = calls.filter((c) => c.priority === "final" && c.ok);
    expect(finals).toHaveLength(1);
    expect(calls.slice(calls.indexOf(finals[0]!) + 1).filter((c) => c.ok)).toEqual([]);
    const limited = calls.filter((c) => c.error === "rate_limited");
    expect(limited.length).toBeGreaterThanOrEqual(1);
    // Every 429 was an injected one: nothing was sent while a retry-after was running.
    for (const c of limited) expect(c.retryAfterMs).toBe(200);
  });
});
