import { writeFileSync } from "node:fs";
import path from "node:path";
import { RateLimitedError } from "@openclaw/plugin-sdk";
import { describe, expect, it } from "vitest";
import { markdownToWhatsApp } from "../src/index.js";
import { credentialsDir, linkedDir, sendOptions, setup, startAccount, until } from "./helpers.js";

const BOB = "+15551230000";
const chat = { kind: "direct" as const, id: BOB };

async function running(channel: Record<string, unknown> = {}, options: Parameters<typeof setup>[0] = {}) {
  const { fake, plugin } = setup(options);
  const dir = await linkedDir(fake, plugin);
  const account = await startAccount(plugin, dir, channel);
  return { fake, account };
}

describe("markdown to WhatsApp markup", () => {
  it("bold, italic, strike, code, headings, lists, links", () => {
    expect(markdownToWhatsApp("**bold** and *italic* and ~~gone~~ and `x = 1`")).toBe("*bold* and _italic_ and ~gone~ and `x = 1`");
    expect(markdownToWhatsApp("# Title\n\n- a\n- b\n\n1. one\n2. two")).toBe("*Title*\n\n- a\n- b\n\n1. one\n2. two");
    expect(markdownToWhatsApp("```js\nconst a = 1;\n```")).toBe("```\nconst a = 1;\n```");
    expect(markdownToWhatsApp("[docs](https://example.com) &amp; > quoted")).toBe("docs (https://example.com) & > quoted");
    expect(markdownToWhatsApp("plain text, nothing else")).toBe("plain text, nothing else");
  });
});

describe("sending", () => {
  it("renders markdown, splits at textChunkLimit and quotes the user's message on the first part only", async () => {
    const { fake, account } = await running({ textChunkLimit: 100 });
    const asked = fake.phone.userSends({ from: BOB, text: "tell me a lot" });
    await account.waitForInbound((m) => m.messageId === asked);
    const paragraph = "This sentence is here to fill the message up nicely. ";
    const text = `**Answer:** ${paragraph.repeat(5)}`;
    const sent = await account.session.sendText({ chat, replyToMessageId: asked }, text, sendOptions());
    const messages = fake.phone.sent(BOB);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(m.text!.length).toBeLessThanOrEqual(100);
    expect(messages[0]!.text!.startsWith("*Answer:*")).toBe(true);
    expect(
      messages
        .map((m) => m.text)
        .join(" ")
        .replace(/\s+/g, " ")
        .trim(),
    ).toBe(markdownToWhatsApp(text).replace(/\s+/g, " ").trim());
    expect(messages.map((m) => m.quotedId)).toEqual([asked, ...messages.slice(1).map(() => undefined)]);
    expect(sent.messageIds).toEqual(messages.map((m) => m.id));
    await account.stop();
  });

  it('streaming.chunkMode "newline" breaks at paragraphs', async () => {
    const { fake, account } = await running({ streaming: { chunkMode: "newline" } });
    await account.session.sendText({ chat }, "first paragraph\n\nsecond paragraph", sendOptions({ format: "plain" }));
    expect(fake.phone.sent(BOB).map((m) => m.text)).toEqual(["first paragraph", "second paragraph"]);
    await account.stop();
  });

  it("images, documents and voice notes go out as WhatsApp media", async () => {
    const { fake, account } = await running();
    const dir = credentialsDir();
    const image = path.join(dir, "cat.png");
    const doc = path.join(dir, "report.pdf");
    const voice = path.join(dir, "hello.ogg");
    writeFileSync(image, "png-bytes");
    writeFileSync(doc, "pdf-bytes");
    writeFileSync(voice, "ogg-bytes");
    await account.session.sendMedia({ chat }, { kind: "image", source: image, caption: "a **cat**" }, sendOptions());
    await account.session.sendMedia({ chat }, { kind: "document", source: doc }, sendOptions());
    const v = await account.session.sendMedia({ chat }, { kind: "audio", source: voice, caption: "listen" }, sendOptions());
    const sent = fake.phone.sent(BOB);
    expect(sent.map((m) => [m.kind, m.text, m.mimetype ?? null, m.bytes ?? null])).toEqual([
      ["image", "a *cat*", "image/png", 9],
      ["document", undefined, "application/pdf", 9],
      ["audio", undefined, "audio/ogg; codecs=opus", 9],
      ["text", "listen", null, null],
    ]);
    expect(sent[1]!.fileName).toBe("report.pdf");
    expect(sent[2]!.ptt).toBe(true);
    expect(v.messageIds).toEqual([sent[2]!.id, sent[3]!.id]);
    await account.stop();
  });

  it("a file over mediaMaxMb is refused with the key to change", async () => {
    const { account } = await running({ mediaMaxMb: 0.000001 });
    const file = path.join(credentialsDir(), "big.pdf");
    writeFileSync(file, "x".repeat(100));
    await expect(account.session.sendMedia({ chat }, { kind: "document", source: file }, sendOptions())).rejects.toThrow(/mediaMaxMb/);
    await account.stop();
  });

  it("typing is a composing presence; concurrent sends reach WhatsApp one at a time, in call order", async () => {
    const { fake, account } = await running();
    await account.session.typing({ chat }, sendOptions());
    expect(fake.phone.presence(BOB)).toEqual(["composing"]);
    const texts = Array.from({ length: 8 }, (_, i) => `message ${i}`);
    await Promise.all(texts.map((t) => account.session.sendText({ chat }, t, sendOptions({ format: "plain" }))));
    expect(fake.phone.sent(BOB).map((m) => m.text)).toEqual(texts);
    await account.stop();
  });

  it("rate-overlimit surfaces as RateLimitedError", async () => {
    const { fake, account } = await running();
    fake.phone.failNextSends(1);
    await expect(account.session.sendText({ chat }, "hi", sendOptions())).rejects.toBeInstanceOf(RateLimitedError);
    await account.session.sendText({ chat }, "hi", sendOptions());
    expect(fake.phone.sent(BOB).map((m) => m.text)).toEqual(["hi"]);
    await account.stop();
  });

  it("a send while disconnected waits for the reconnect, and fails (retryably) when none comes in time", async () => {
    const { fake, account } = await running(
      {},
      { reconnect: { initialMs: 200, maxMs: 200, factor: 1, jitter: 0, maxAttempts: 5 }, reconnectWaitMs: 5000 },
    );
    fake.phone.disconnect(428);
    await until(() => account.state() === "reconnecting");
    const sending = account.session.sendText({ chat }, "are you there?", sendOptions());
    await until(() => fake.phone.connected);
    await sending;
    expect(fake.phone.sent(BOB).map((m) => m.text)).toEqual(["are you there?"]);
    await account.stop();

    const short = await running(
      {},
      { reconnect: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0, maxAttempts: 5 }, reconnectWaitMs: 50 },
    );
    short.fake.phone.disconnect(428);
    await until(() => short.account.state() === "reconnecting");
    const error = await short.account.session.sendText({ chat }, "hello?", sendOptions()).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/not connected/);
    await short.account.stop();
  });
});
