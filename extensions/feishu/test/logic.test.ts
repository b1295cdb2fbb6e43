// Pure logic of the plugin: text sizes, the card stream's sequence and rollover, the webhook's
// checks, event normalization and redelivery dedupe.
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import type { PluginHttpRequest, PluginLogger } from "@openclaw/plugin-sdk";
import { describe, expect, it } from "vitest";
import {
  type CardPacing,
  CardStream,
  chunkForFeishu,
  createWebhookHandler,
  cutPoint,
  type FeishuApi,
  jsonBytes,
  MAX_FAILURES,
  normalizeMessageEvent,
  SeenIds,
  signatureOf,
} from "../src/index.js";

const quiet: PluginLogger = { debug() {}, info() {}, warn() {}, error() {} };

describe("text sizes", () => {
  it("splits multi-byte text to fit the byte budget and textChunkLimit, losing nothing", () => {
    const text = "飞书消息。".repeat(4000); // 20 000 characters, 60 000 bytes
    const chunks = chunkForFeishu(text, { maxChars: 4000, maxBytes: 10_000 });
    expect(chunks.join("")).toBe(text);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(4000);
      expect(jsonBytes(c)).toBeLessThanOrEqual(10_000);
    }
  });

  it("cuts at a paragraph break when one is near the end of what fits", () => {
    const text = `${"a".repeat(700)}\n\n${"b".repeat(700)}`;
    expect(cutPoint(text, 1000)).toBe(702);
  });
});

/** A fake FeishuApi recording CardKit calls (the e2e tests use the fake platform instead). */
function recordingApi() {
  const calls: Array<{ method: string; url: string; data: Record<string, unknown> }> = [];
  let cards = 0;
  const api = {
    async call(_what: string, method: string, url: string, data: Record<string, unknown>) {
      calls.push({ method, url, data });
      if (url === "/open-apis/cardkit/v1/cards") return { card_id: `card_${++cards}` };
      return {};
    },
  } as unknown as FeishuApi;
  return { api, calls };
}

const instant: CardPacing = { intervalMs: 0, midSentenceMs: 0, now: () => 0, sleep: async () => undefined };

describe("card stream", () => {
  it("pushes the whole text with a strictly rising sequence and closes with a summary", async () => {
    const { api, calls } = recordingApi();
    const sent: string[] = [];
    const stream = await CardStream.open({ api, sendCard: async (c) => (sent.push(c), `om_${sent.length}`), pacing: instant });
    await stream.update("Hello");
    await stream.update("Hello world.");
    const done = await stream.finish("Hello world. Bye.");
    expect(done).toEqual({ messageId: "om_1" });
    const seqs = calls.filter((c) => c.url.startsWith("/open-apis/cardkit/v1/cards/card_1/")).map((c) => c.data.sequence as number);
    expect(seqs).toEqual([1, 2, 3, 4]);
    const contents = calls.filter((c) => c.url.endsWith("/content")).map((c) => c.data.content);
    expect(contents).toEqual(["Hello", "Hello world.", "Hello world. Bye."]);
    const settings = JSON.parse(calls.at(-1)!.data.settings as string);
    expect(settings.config).toEqual({ streaming_mode: false, summary: { content: "Hello world. Bye." } });
  });

  it("continues in a next card near the byte limit; the cards together are the text, once", async () => {
    const { api, calls } = recordingApi();
    let n = 0;
    const stream = await CardStream.open({ api, sendCard: async () => `om_${++n}`, pacing: instant, cardBytes: 1000 });
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    for (let i = 100; i < text.length; i += 150) await stream.update(text.slice(0, i));
    const done = await stream.finish(text);
    expect(done.messageIds?.length).toBeGreaterThan(1);
    const last = new Map<string, string>();
    for (const c of calls) {
      const m = /cards\/(card_\d+)\/elements\/content\/content$/.exec(c.url);
      if (m) last.set(m[1]!, c.data.content as string);
    }
    expect([...last.values()].join("")).toBe(text);
    for (const content of last.values()) expect(jsonBytes(content)).toBeLessThanOrEqual(1000);
    // Nothing is deleted.
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
  });

  it("waits longer mid-sentence than at a sentence end", async () => {
    const { api } = recordingApi();
    let clock = 0;
    const waits: number[] = [];
    const pacing: CardPacing = {
      intervalMs: 160,
      midSentenceMs: 320,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    };
    const stream = await CardStream.open({ api, sendCard: async () => "om_1", pacing });
    await stream.update("First.");
    await stream.update("First. Sec");
    await stream.update("First. Second.");
    expect(waits).toEqual([320, 160]);
  });
});

function encrypt(body: object, key: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", createHash("sha256").update(key).digest(), iv);
  return Buffer.concat([iv, cipher.update(JSON.stringify(body)), cipher.final()]).toString("base64");
}

function request(body: string, headers: Record<string, string>, remoteAddress = "10.0.0.1"): PluginHttpRequest {
  return { method: "POST", url: "/feishu/events", headers, body: new TextEncoder().encode(body), remoteAddress };
}

describe("webhook", () => {
  const keys = { encryptKey: "enc-key", verificationToken: "vtoken" };
  const signed = (body: string, key = keys.encryptKey) => ({
    "x-lark-request-timestamp": "1700000000",
    "x-lark-request-nonce": "n1",
    "x-lark-signature": signatureOf("1700000000", "n1", key, new TextEncoder().encode(body)),
  });

  it("answers url_verification, takes a signed encrypted event, refuses bad signatures and then the peer", async () => {
    const events: unknown[] = [];
    const handler = createWebhookHandler({ keys, log: quiet, onEvent: async (e) => void events.push(e) });
    const challenge = JSON.stringify({
      encrypt: encrypt({ type: "url_verification", challenge: "c-1", token: "vtoken" }, keys.encryptKey),
    });
    expect(JSON.parse(String((await handler(request(challenge, {}))).body))).toEqual({ challenge: "c-1" });

    const event = { schema: "2.0", header: { event_id: "e1", event_type: "im.message.receive_v1", token: "vtoken" }, event: { x: 1 } };
    const body = JSON.stringify({ encrypt: encrypt(event, keys.encryptKey) });
    expect((await handler(request(body, signed(body)))).status).toBe(200);
    expect(events).toEqual([event]);

    for (let i = 0; i < MAX_FAILURES; i++) expect((await handler(request(body, signed(body, "wrong")))).status).toBe(401);
    expect((await handler(request(body, signed(body)))).status).toBe(429);
    // Another peer is not affected.
    expect((await handler(request(body, signed(body), "10.0.0.2"))).status).toBe(200);
    expect(events).toHaveLength(2);
  });

  it("answers 500 when core did not take the event, so Feishu delivers it again", async () => {
    const handler = createWebhookHandler({ keys, log: quiet, onEvent: async () => Promise.reject(new Error("stopping")) });
    const body = JSON.stringify({ encrypt: encrypt({ schema: "2.0", header: { token: "vtoken" }, event: {} }, keys.encryptKey) });
    expect((await handler(request(body, signed(body)))).status).toBe(500);
  });
});

describe("inbound", () => {
  const base = (message: Record<string, unknown>, sender = "ou_user") => ({
    event_id: "ev1",
    sender: { sender_id: { open_id: sender }, sender_type: "user" },
    message: { message_id: "om_1", chat_id: "oc_chat", create_time: "1700000000000", ...message },
  });

  it("text in a group: the bot's mention is removed and sets mentionsBot", () => {
    const m = normalizeMessageEvent(
      base({
        chat_type: "group",
        message_type: "text",
        content: JSON.stringify({ text: "@_user_1 hi @_user_2" }),
        mentions: [
          { key: "@_user_1", id: { open_id: "ou_bot" }, name: "Bot" },
          { key: "@_user_2", id: { open_id: "ou_ann" }, name: "Ann" },
        ],
      }),
      "default",
      "ou_bot",
      0,
    );
    expect(m).toMatchObject({ text: "hi @Ann", mentionsBot: true, chat: { kind: "group", id: "oc_chat" }, sender: { id: "ou_user" } });
  });

  it("post, image and file; topics carry the thread; the bot's own messages are skipped", () => {
    const post = normalizeMessageEvent(
      base({
        chat_type: "p2p",
        message_type: "post",
        content: JSON.stringify({
          title: "T",
          content: [
            [
              { tag: "text", text: "line " },
              { tag: "a", text: "x", href: "https://x.y" },
            ],
          ],
        }),
      }),
      "default",
      "ou_bot",
      0,
    );
    expect(post).toMatchObject({ text: "T\nline [x](https://x.y)", mentionsBot: true, chat: { kind: "direct" } });
    const image = normalizeMessageEvent(
      base({ chat_type: "p2p", message_type: "image", content: '{"image_key":"img_1"}' }),
      "d",
      "ou_bot",
      0,
    );
    expect(image?.media).toEqual([{ kind: "image", fileId: "img_1" }]);
    const file = normalizeMessageEvent(
      base({ chat_type: "group", thread_id: "omt_9", message_type: "file", content: '{"file_key":"f_1","file_name":"a.pdf"}' }),
      "d",
      "ou_bot",
      0,
    );
    expect(file).toMatchObject({
      chat: { threadId: "omt_9" },
      media: [{ kind: "document", fileId: "f_1", fileName: "a.pdf" }],
      mentionsBot: false,
    });
    expect(
      normalizeMessageEvent(base({ chat_type: "p2p", message_type: "text", content: "{}" }, "ou_bot"), "d", "ou_bot", 0),
    ).toBeUndefined();
  });
});

describe("dedupe", () => {
  it("takes a message once, across a restart, and again when core did not record it", async () => {
    const data = new Map<string, string>();
    const store = { get: (k: string) => data.get(k), set: (k: string, v: string) => void data.set(k, v) };
    let taken = 0;
    const take = async () => void taken++;
    const seen = new SeenIds(store);
    await expect(seen.once(["om_1", "ev1"], () => Promise.reject(new Error("stopping")))).rejects.toThrow();
    expect(await seen.once(["om_1", "ev1"], take)).toBe(true);
    expect(await seen.once(["om_1", "ev2"], take)).toBe(false);
    expect(await new SeenIds(store).once(["om_x", "ev1"], take)).toBe(false);
    expect(taken).toBe(1);
  });
});
