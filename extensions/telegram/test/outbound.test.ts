import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRetryableSendError, PermanentSendError, RateLimitedError, TransientSendError, type ChannelOutbound } from "@openclaw/plugin-sdk";
import { startFakeTelegram, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSendingApi, createTelegramOutbound } from "../src/index.js";
import { ann, memoryLog, resolveFromConfig, sendOptions } from "./helpers.js";

let fake: FakeTelegram;
let log: ReturnType<typeof memoryLog>;

beforeEach(async () => {
  fake = await startFakeTelegram();
  log = memoryLog();
});
afterEach(async () => {
  await fake.close();
});

function outbound(config: Record<string, unknown> = {}): ChannelOutbound {
  const account = resolveFromConfig({ apiRoot: `${fake.apiRoot}/`, botToken: fake.token, ...config });
  return createTelegramOutbound(account, { log, signal: new AbortController().signal });
}

const dm = { chat: { kind: "direct" as const, id: "42" } };

describe("sendText", () => {
  it("renders Markdown as Telegram HTML", async () => {
    const out = outbound();
    const md = "**Bold** _it_ ~~gone~~ `a<b>` [docs](https://example.com/?a=1&b=2) 5 < 6 & 7\n\n```ts\nconst a = 1 < 2;\n```";
    const sent = await out.sendText(dm, md, sendOptions());
    const [version] = fake.editsOf(Number(sent.messageId));
    expect(version!.parseMode).toBe("HTML");
    expect(version!.text).toBe("Bold it gone a<b> docs 5 < 6 & 7\n\nconst a = 1 < 2;");
    expect(version!.entities.map((e) => e.type)).toEqual(["bold", "italic", "strikethrough", "code", "text_link", "pre"]);
    expect(version!.entities.find((e) => e.type === "pre")).toMatchObject({ language: "ts" });
    expect(version!.entities.find((e) => e.type === "text_link")).toMatchObject({ url: "https://example.com/?a=1&b=2" });
  });

  it("splits text over 4096 visible characters into balanced messages, in order, without losing text", async () => {
    const out = outbound();
    const words = Array.from({ length: 900 }, (_, i) => `w${i}`).join(" ");
    const md = `**${words}**\n\n_${words}_`;
    const sent = await out.sendText(dm, md, sendOptions());
    const chat = fake.chat(42);
    expect(chat.length).toBeGreaterThan(1);
    expect(chat.at(-1)!.message_id).toBe(Number(sent.messageId));
    for (const message of chat) expect(message.text!.length).toBeLessThanOrEqual(4096);
    const joined = chat
      .map((m) => m.text)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(joined).toBe(`${words} ${words}`);
    // Bold continues across the cut: every message that holds bold words starts with a bold entity.
    expect(chat[1]!.entities![0]).toMatchObject({ offset: 0 });
  });

  it("resends as plain text when Telegram refuses the entities", async () => {
    const out = outbound();
    fake.injectError({
      method: "sendMessage",
      count: 1,
      error_code: 400,
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0',
    });
    const sent = await out.sendText(dm, "**hello** <world>", sendOptions());
    const sends = fake.calls.filter((c) => c.method === "sendMessage");
    expect(sends).toHaveLength(2);
    expect(sends[0]!.params.parse_mode).toBe("HTML");
    expect(sends[1]!.params.parse_mode).toBeUndefined();
    expect(fake.editsOf(Number(sent.messageId))[0]!.text).toBe("hello <world>");
    expect(log.lines.some((l) => l.level === "warn" && /plain text/.test(l.message))).toBe(true);
  });

  it("quotes the replied message (even a deleted one), sets the topic thread, and honours silent and linkPreview", async () => {
    const out = outbound({ linkPreview: false });
    const user = fake.sendUserMessage({ ...ann, text: "question" });
    const reply = await out.sendText(
      { ...dm, replyToMessageId: String(user.message!.message_id) },
      "answer",
      sendOptions({ silent: true }),
    );
    const message = fake.chat(42).find((m) => m.message_id === Number(reply.messageId))!;
    expect(message.reply_to_message?.message_id).toBe(user.message!.message_id);
    const call = fake.calls.find((c) => c.method === "sendMessage")!;
    expect(call.params).toMatchObject({
      reply_parameters: { message_id: user.message!.message_id, allow_sending_without_reply: true },
      disable_notification: true,
      link_preview_options: { is_disabled: true },
    });
    await out.sendText({ ...dm, replyToMessageId: "999999" }, "still sent", sendOptions());

    const forum = {
      chat: { id: -100777, type: "supergroup" as const, title: "Forum", is_forum: true },
      from: { id: 7, first_name: "Bob" },
    };
    fake.sendUserMessage({ ...forum, text: "in topic", message_thread_id: 15 });
    const inTopic = await out.sendText({ chat: { kind: "group", id: "-100777", threadId: "15" } }, "topic reply", sendOptions());
    expect(fake.chat(-100777).find((m) => m.message_id === Number(inTopic.messageId))!.message_thread_id).toBe(15);
    await out.sendText({ chat: { kind: "group", id: "-100777", threadId: "1" } }, "general reply", sendOptions());
    expect(fake.calls.filter((c) => c.method === "sendMessage").at(-1)!.params.message_thread_id).toBeUndefined();
  });
});

describe("editText, deleteMessage, typing", () => {
  it("edits in place with HTML, treats 'not modified' as done, and falls back to plain text", async () => {
    const out = outbound();
    const sent = await out.sendText(dm, "draft", sendOptions({ priority: "preview" }));
    await out.editText!(dm, sent.messageId, "**final** text", sendOptions());
    await out.editText!(dm, sent.messageId, "**final** text", sendOptions());
    fake.injectError({ method: "editMessageText", count: 1, error_code: 400, description: "Bad Request: can't parse entities: whatever" });
    await out.editText!(dm, sent.messageId, "**plain** now", sendOptions());
    const versions = fake.editsOf(Number(sent.messageId));
    expect(versions.map((v) => [v.text, v.parseMode])).toEqual([
      ["draft", "HTML"],
      ["final text", "HTML"],
      ["plain now", undefined],
    ]);
    expect(versions[1]!.entities[0]).toMatchObject({ type: "bold", offset: 0, length: 5 });
  });

  it("deletes, and a message already gone counts as deleted", async () => {
    const out = outbound();
    const sent = await out.sendText(dm, "bye", sendOptions());
    await out.deleteMessage!(dm, sent.messageId, sendOptions());
    expect(fake.wasDeleted(Number(sent.messageId))).toBe(true);
    await expect(out.deleteMessage!(dm, sent.messageId, sendOptions())).resolves.toBeUndefined();
  });

  it("sends the typing action, keeping the General topic's thread id", async () => {
    const out = outbound();
    await out.typing!(dm, sendOptions({ priority: "typing" }));
    const forum = {
      chat: { id: -100777, type: "supergroup" as const, title: "Forum", is_forum: true },
      from: { id: 7, first_name: "Bob" },
    };
    fake.sendUserMessage({ ...forum, text: "hi" });
    await out.typing!({ chat: { kind: "group", id: "-100777", threadId: "1" } }, sendOptions({ priority: "typing" }));
    const actions = fake.calls.filter((c) => c.method === "sendChatAction").map((c) => c.params);
    expect(actions).toEqual([
      { chat_id: 42, action: "typing" },
      { chat_id: -100777, action: "typing", message_thread_id: 1 },
    ]);
  });
});

describe("sendMedia", () => {
  it("uploads a local photo and document, passes URLs through, and renders captions", async () => {
    const out = outbound();
    const dir = mkdtempSync(join(tmpdir(), "tg-media-"));
    const photo = join(dir, "cat.jpg");
    const doc = join(dir, "notes.txt");
    writeFileSync(photo, "jpeg-bytes");
    writeFileSync(doc, "some notes");
    const p = await out.sendMedia!(dm, { kind: "image", source: photo, caption: "**cute**" }, sendOptions());
    const d = await out.sendMedia!(dm, { kind: "document", source: doc, fileName: "my-notes.txt" }, sendOptions());
    await out.sendMedia!(dm, { kind: "image", source: "https://example.com/pic.png" }, sendOptions());
    const [photoCall, docCall, urlCall] = fake.calls.filter((c) => c.method === "sendPhoto" || c.method === "sendDocument");
    expect(photoCall!.uploads).toEqual([expect.objectContaining({ field: "photo", fileName: "cat.jpg", size: 10 })]);
    expect(photoCall!.params.parse_mode).toBe("HTML");
    expect(docCall!.uploads).toEqual([expect.objectContaining({ field: "document", fileName: "my-notes.txt" })]);
    expect(urlCall!.params.photo).toBe("https://example.com/pic.png");
    const chat = fake.chat(42);
    expect(chat.find((m) => m.message_id === Number(p.messageId))).toMatchObject({ caption: "cute", photo: expect.any(Array) });
    expect(chat.find((m) => m.message_id === Number(d.messageId))?.document).toMatchObject({ file_name: "my-notes.txt" });
  });

  it("refuses a missing local file as permanent", async () => {
    const out = outbound();
    await expect(out.sendMedia!(dm, { kind: "document", source: "/nonexistent/file.pdf" }, sendOptions())).rejects.toBeInstanceOf(
      PermanentSendError,
    );
  });
});

describe("errors through the API transformer", () => {
  it("turns 429 into RateLimitedError with retry_after in ms", async () => {
    const out = outbound();
    fake.inject429({ method: "sendMessage", count: 1, retryAfter: 7 });
    const error = await out.sendText(dm, "hi", sendOptions()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(7000);
  });

  it("turns a blocked bot and an unknown chat into PermanentSendError", async () => {
    const out = outbound();
    fake.injectError({ method: "sendMessage", count: 1, error_code: 403, description: "Forbidden: bot was blocked by the user" });
    const blocked = await out.sendText(dm, "hi", sendOptions()).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(PermanentSendError);
    expect((blocked as PermanentSendError).code).toBe("bot_blocked");
    fake.injectError({ method: "sendMessage", count: 1, error_code: 400, description: "Bad Request: chat not found" });
    const missing = await out.sendText(dm, "hi", sendOptions()).catch((e: unknown) => e);
    expect((missing as PermanentSendError).code).toBe("chat_not_found");
  });

  it("marks a dropped connection as a retryable network error", async () => {
    const out = outbound();
    fake.dropConnections({ method: "sendMessage", count: 1 });
    const error = await out.sendText(dm, "hi", sendOptions()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error).toMatchObject({ code: "network", retryable: true });
    expect(isRetryableSendError(error)).toBe(true);
  });

  it("turns a 5xx answer into a retryable TransientSendError", async () => {
    const out = outbound();
    fake.injectError({ method: "sendMessage", count: 1, error_code: 502, description: "Bad Gateway" });
    const error = await out.sendText(dm, "hi", sendOptions()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error).toMatchObject({ code: "http_502", retryable: true });
    expect((error as Error).message).toContain("502 Bad Gateway");
  });

  it("a split text that fails half-way reports the parts that landed; the retry sends only the rest", async () => {
    const api = createSendingApi(fake.token, { apiRoot: fake.apiRoot, log });
    let sends = 0;
    api.config.use(async (prev, method, payload, signal) => {
      if (method === "sendMessage" && ++sends === 2)
        fake.injectError({ method: "sendMessage", count: 1, error_code: 502, description: "Bad Gateway" });
      return prev(method, payload, signal);
    });
    const account = resolveFromConfig({ apiRoot: fake.apiRoot, botToken: fake.token });
    const out = createTelegramOutbound(account, { log, api });
    const words = Array.from({ length: 900 }, (_, i) => `w${i}`).join(" ");
    const text = `${words}\n\n${words}`;

    const error = await out.sendText(dm, text, sendOptions({ idempotencyKey: "reply-9:final:0" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientSendError);
    const landed = fake.chat(42).map((m) => String(m.message_id));
    expect(landed).toHaveLength(1);
    expect((error as TransientSendError).deliveredMessageIds).toEqual(landed);

    const sent = await out.sendText(dm, text, sendOptions({ idempotencyKey: "reply-9:final:0" }));
    const chat = fake.chat(42);
    expect(sent.messageIds).toEqual(chat.map((m) => String(m.message_id)));
    expect(sent.messageId).toBe(sent.messageIds!.at(-1));
    expect(
      chat
        .map((m) => m.text)
        .join(" ")
        .replace(/\s+/g, " "),
    ).toBe(`${words} ${words}`);
  });
});
