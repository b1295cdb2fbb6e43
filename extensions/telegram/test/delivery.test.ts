// The delivery engine (send budget, live preview) driving the real Telegram outbound against the
// fake Bot API: regressions of the reference's worst preview bugs.
import { InMemoryDeliveryLedger, PreviewController, SendBudget, sendParts } from "@openclaw/delivery";
import type { ChannelOutbound } from "@openclaw/plugin-sdk";
import { startFakeTelegram, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTelegramOutbound, TELEGRAM_CAPABILITIES } from "../src/index.js";
import { memoryLog, resolveFromConfig } from "./helpers.js";

let fake: FakeTelegram;
beforeEach(async () => {
  fake = await startFakeTelegram();
});
afterEach(async () => {
  await fake.close();
});

const target = { chat: { kind: "direct" as const, id: "42" } };

function outbound(): ChannelOutbound {
  const account = resolveFromConfig({ apiRoot: fake.apiRoot, botToken: fake.token });
  return createTelegramOutbound(account, { log: memoryLog(), signal: new AbortController().signal });
}

function preview(out: ChannelOutbound, budget: SendBudget, editLimit: number): PreviewController {
  return new PreviewController({
    outbound: out,
    target,
    budget,
    chatKey: "42",
    textLimit: TELEGRAM_CAPABILITIES.textLimit,
    editLimit,
    throttleMs: 250,
    format: "markdown",
    idempotencyKey: "reply-1",
    signal: new AbortController().signal,
  });
}

/** A reply of numbered sentences, so any repeated text is easy to see. */
function reply(chars: number): string {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} is here.${i % 7 === 6 ? "\n\n" : " "}`;
  return text.trim();
}

/** Streams `text` into the preview in `step`-character increments, yielding to the event loop between. */
async function stream(controller: PreviewController, text: string, step: number, intervalMs = 5): Promise<void> {
  for (let end = step; end < text.length + step; end += step) {
    controller.update(text.slice(0, end));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Every sentence number the chat shows, in order. */
function sentenceNumbers(): number[] {
  return fake
    .chat(42)
    .map((m) => m.text ?? "")
    .join(" ")
    .match(/Sentence number (\d+)/g)!
    .map((s) => Number(s.slice("Sentence number ".length)));
}

describe("live preview on Telegram", () => {
  it("partial: a reply over 4096 characters rolls over without repeating text and finalizes in place (#87624)", async () => {
    const out = outbound();
    const budget = new SendBudget({ perChatRate: 50, perChatBurst: 5 });
    const controller = preview(out, budget, TELEGRAM_CAPABILITIES.editLimit);
    const text = reply(9000);
    await stream(controller, text, 400);
    const result = await controller.finalize(text);
    const chat = fake.chat(42);
    expect(chat.length).toBeGreaterThanOrEqual(3);
    expect(result.messageIds).toEqual(chat.map((m) => String(m.message_id)));
    for (const message of chat) expect(message.text!.length).toBeLessThanOrEqual(4096);
    const numbers = sentenceNumbers();
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(
      chat
        .map((m) => m.text)
        .join(" ")
        .replace(/\s+/g, " "),
    ).toBe(text.replace(/\s+/g, " "));
    // The first preview message was edited in place and never deleted and re-sent.
    expect(fake.calls.filter((c) => c.method === "deleteMessage")).toHaveLength(0);
    expect(fake.editsOf(chat[0]!.message_id).length).toBeGreaterThan(1);
  });

  it("block: the preview rotates at preview.chunk.maxChars without repeating text (#87624)", async () => {
    const out = outbound();
    const budget = new SendBudget({ perChatRate: 50, perChatBurst: 5 });
    const controller = preview(out, budget, 800);
    const text = reply(3000);
    await stream(controller, text, 300, 100);
    await controller.finalize(text);
    const chat = fake.chat(42);
    expect(chat.length).toBeGreaterThanOrEqual(3);
    // Every rotated preview holds at most maxChars; the final's tail follows as one message.
    for (const message of chat.slice(0, -1)) expect(message.text!.length).toBeLessThanOrEqual(800);
    expect(
      chat
        .map((m) => m.text)
        .join(" ")
        .replace(/\s+/g, " "),
    ).toBe(text.replace(/\s+/g, " "));
    const numbers = sentenceNumbers();
    expect(numbers).toEqual(numbers.map((_, i) => i));
  });

  it("a 429 storm during the preview leaves exactly one complete final and no edit after it (#141528)", async () => {
    const out = outbound();
    const budget = new SendBudget({ perChatRate: 50, perChatBurst: 5 });
    const controller = preview(out, budget, TELEGRAM_CAPABILITIES.editLimit);
    const text = reply(2500);
    await stream(controller, text.slice(0, 600), 200);
    await fake.waitFor(() => fake.chat(42).length === 1);
    fake.inject429({ method: "editMessageText", count: 2, retryAfter: 1 });
    await stream(controller, text, 300);
    const result = await controller.finalize(text);
    const finishedAt = Date.now();
    expect(result.messageIds).toHaveLength(1);
    const [message] = fake.chat(42);
    expect(message!.text).toBe(text);
    expect(fake.calls.filter((c) => c.method === "sendMessage" && c.ok)).toHaveLength(1);
    // Nothing is left queued to overwrite the final: the budget runs a chat's jobs in order, so once
    // a probe queued behind them has run (it is refused while the chat is paused), they have too.
    for (;;) {
      const probe = await budget.run("42", "preview", async () => undefined);
      if (probe.status === "sent") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(fake.calls.filter((c) => c.method === "editMessageText" && c.time > finishedAt)).toHaveLength(0);
    expect(fake.editsOf(message!.message_id).at(-1)!.text).toBe(text);
  });
});

describe("final replies on Telegram", () => {
  it("a 502 during the final is retried with backoff and the answer arrives once", async () => {
    const out = outbound();
    const budget = new SendBudget({ perChatRate: 50, perChatBurst: 5, transientBackoffMs: 50 });
    const ledger = new InMemoryDeliveryLedger();
    fake.injectError({ method: "sendMessage", count: 1, error_code: 502, description: "Bad Gateway" });
    const text = reply(600);
    const result = await sendParts({
      outbound: out,
      budget,
      chatKey: "42",
      target,
      chunks: [text],
      key: "reply-1:final",
      ledger,
      signal: new AbortController().signal,
    });
    const sends = fake.calls.filter((c) => c.method === "sendMessage");
    expect(sends.map((c) => c.ok)).toEqual([false, true]);
    expect(fake.chat(42).map((m) => m.text)).toEqual([text]);
    expect(result.messageIds).toEqual([String(fake.chat(42)[0]!.message_id)]);
    expect(ledger.parts("reply-1:final")).toEqual([result.messageIds]);
  });
});
