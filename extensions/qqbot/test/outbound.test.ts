// The sending side against the fake QQ Bot platform: what a user sees for each kind of send, and
// the platform's rules (msg_seq never repeated, 5000 characters, files through the upload endpoint).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SendOptions } from "@openclaw/plugin-sdk";
import { type FakeQQBot, startFakeQQBot } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CursorStore, openid, type RunningAccount, startAccount } from "./helpers.js";

let fake: FakeQQBot;
let accounts: RunningAccount[];
beforeEach(async () => {
  fake = await startFakeQQBot({ heartbeatIntervalMs: 1000 });
  accounts = [];
});
afterEach(async () => {
  for (const a of accounts) await a.stop().catch(() => undefined);
  await fake.close();
});

async function start(options: Parameters<typeof startAccount>[1] = {}): Promise<RunningAccount> {
  const account = await startAccount(fake, options);
  accounts.push(account);
  return account;
}

const send = (inReplyTo: string | undefined, extra: Partial<SendOptions> = {}): SendOptions => ({
  signal: new AbortController().signal,
  priority: "final",
  format: "plain",
  idempotencyKey: `k-${Math.random()}`,
  ...(inReplyTo !== undefined ? { inReplyTo } : {}),
  ...extra,
});

describe("sending", () => {
  it("typing, a quote and a markdown reply in C2C, each a passive reply with its own msg_seq", async () => {
    const account = await start({ config: { markdownSupport: true } });
    const user = openid(1);
    const msgId = fake.userSendsC2C({ openid: user, content: "hi" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    await account.session.typing!({ chat: inbound.chat }, send(msgId, { priority: "typing" }));
    await account.session.sendText({ chat: inbound.chat, replyToMessageId: msgId }, "quoted", send(msgId));
    await account.session.sendText({ chat: inbound.chat }, "**bold**", send(msgId, { format: "markdown" }));
    expect(fake.typingNotices(user)).toBe(1);
    expect(fake.c2cMessages(user)).toMatchObject([
      { kind: "text", content: "quoted", quoted: msgId, replyTo: msgId },
      { kind: "markdown", content: "**bold**", replyTo: msgId },
    ]);
    expect(fake.passiveRepliesUsed(msgId)).toBe(3);
  });

  it("a passive reply the platform refuses (replies used up, reply window closed) goes out as a proactive message", async () => {
    const account = await start();
    const user = openid(7);
    const msgId = fake.userSendsC2C({ openid: user, content: "hi" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    fake.failNext({ pathIncludes: "/messages", status: 400, body: { code: 22009, message: "msg limit exceed" } });
    await account.session.sendText({ chat: inbound.chat, replyToMessageId: msgId }, "the whole answer", send(msgId));
    fake.failNext({ pathIncludes: "/messages", status: 400, body: { code: 304026, message: "msg_id is invalid" } });
    await account.session.sendText({ chat: inbound.chat }, "the rest", send(msgId));
    expect(fake.c2cMessages(user).map((m) => [m.content, m.replyTo, m.quoted])).toEqual([
      ["the whole answer", undefined, undefined],
      ["the rest", undefined, undefined],
    ]);
    // Any other refusal is not retried.
    fake.failNext({ pathIncludes: "/messages", status: 400, body: { code: 50035, message: "content exceeds 5000 characters" } });
    await expect(account.session.sendText({ chat: inbound.chat }, "no", send(msgId))).rejects.toThrow(/code 50035/);
    expect(fake.c2cMessages(user)).toHaveLength(2);
  });

  it("msg_seq is never repeated for a message, also by a restarted account", async () => {
    const cursors: CursorStore = new Map();
    const first = await start({ cursors });
    const user = openid(2);
    const msgId = fake.userSendsC2C({ openid: user, content: "hi" });
    const inbound = await first.waitForInbound((m) => m.messageId === msgId);
    await first.session.sendText({ chat: inbound.chat }, "before", send(msgId));
    await first.stop();
    const second = await start({ cursors });
    await second.session.sendText({ chat: inbound.chat }, "after", send(msgId));
    const seqs = fake.c2cMessages(user).map((m) => m.msgSeq);
    expect(fake.c2cMessages(user).map((m) => m.content)).toEqual(["before", "after"]);
    expect(new Set(seqs).size).toBe(2);
  });

  it("a text over 5000 characters is split at the limit, every part delivered", async () => {
    const account = await start();
    const user = openid(3);
    const msgId = fake.userSendsC2C({ openid: user, content: "hi" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    const text = "word ".repeat(1500).trim();
    const sent = await account.session.sendText({ chat: inbound.chat }, text, send(msgId));
    const seen = fake.c2cMessages(user);
    expect(seen.length).toBe(2);
    for (const m of seen) expect(m.content.length).toBeLessThanOrEqual(5000);
    expect(seen.map((m) => m.content).join(" ")).toBe(text);
    expect(sent.messageIds).toEqual(seen.map((m) => m.id));
  });

  it("a file goes through the upload endpoint and arrives as a media message", async () => {
    const account = await start();
    const user = openid(4);
    const msgId = fake.userSendsC2C({ openid: user, content: "send me the notes" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    const file = join(mkdtempSync(join(tmpdir(), "qq-media-")), "notes.txt");
    writeFileSync(file, "Notes.\n");
    const sent = await account.session.sendMedia!({ chat: inbound.chat }, { kind: "document", source: file, caption: "here" }, send(msgId));
    const [message] = fake.c2cMessages(user);
    expect(message).toMatchObject({ id: sent.messageId, kind: "media", replyTo: msgId, media: { fileType: 4, bytes: 7 } });
    expect(fake.calls.some((c) => c.path.endsWith("/files") && c.status === 200)).toBe(true);
  });

  it("attachments of an incoming message arrive as media", async () => {
    const account = await start();
    const msgId = fake.userSendsC2C({
      openid: openid(5),
      content: "look",
      attachments: [{ content_type: "image/png", filename: "a.png", url: "https://multimedia.nt.qq.com/a.png", size: 10 }],
    });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    expect(inbound.media).toEqual([
      { kind: "image", url: "https://multimedia.nt.qq.com/a.png", mimeType: "image/png", fileName: "a.png", size: 10 },
    ]);
  });
});
