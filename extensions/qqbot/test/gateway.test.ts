// The account against the fake QQ Bot platform: messages reach the host, replies go back as
// passive replies, and the gateway resumes after drops and restarts without losing or repeating.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { type FakeQQBot, startFakeQQBot } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CursorStore, openid, type RunningAccount, startAccount } from "./helpers.js";

let fake: FakeQQBot;
let running: RunningAccount[] = [];
beforeEach(async () => {
  fake = await startFakeQQBot({ heartbeatIntervalMs: 200 });
  running = [];
});
afterEach(async () => {
  for (const r of running) await r.stop().catch(() => undefined);
  await fake.close();
});

/** An account whose "host" answers every message it records with `echo: <text>`, as a passive reply. */
async function echoAccount(cursors?: CursorStore): Promise<RunningAccount> {
  let self: RunningAccount | undefined;
  const pending: InboundMessage[] = [];
  const answer = (m: InboundMessage): void => {
    void self!.session.sendText({ chat: m.chat }, `echo: ${m.text}`, {
      signal: new AbortController().signal,
      priority: "final",
      format: "plain",
      idempotencyKey: `reply:${m.messageId}`,
      inReplyTo: m.messageId,
    });
  };
  self = await startAccount(fake, {
    ...(cursors ? { cursors } : {}),
    onReceive: (m) => {
      // Answer after the message is recorded (as the host does); hold answers until connect returned.
      setImmediate(() => (self ? answer(m) : pending.push(m)));
    },
  });
  for (const m of pending.splice(0)) answer(m);
  running.push(self);
  return self;
}

const texts = (user: string) => fake.c2cMessages(user).map((m) => m.content);

describe("receiving and answering", () => {
  it("a C2C message reaches the host and the answer arrives as a passive reply to it", async () => {
    const account = await echoAccount();
    const user = openid(1);
    const msgId = fake.userSendsC2C({ openid: user, content: "hello bot" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    expect(inbound).toMatchObject({
      channel: "qqbot",
      chat: { kind: "direct", id: user },
      sender: { id: user },
      text: "hello bot",
      mentionsBot: true,
    });
    await fake.waitFor(() => fake.c2cMessages(user).length === 1);
    expect(fake.c2cMessages(user)[0]).toMatchObject({ kind: "text", content: "echo: hello bot", replyTo: msgId });
    expect(fake.passiveRepliesUsed(msgId)).toBe(1);
    expect(account.ctx.statuses.some((s) => s.state === "connected")).toBe(true);
  });

  it("a group @-message reaches the host with mentionsBot, without the mention, and is answered in the group", async () => {
    const account = await echoAccount();
    const group = openid(2);
    const member = openid(3);
    const msgId = fake.userSendsGroupAt({ groupOpenid: group, memberOpenid: member, content: "what time is it?" });
    const inbound = await account.waitForInbound((m) => m.messageId === msgId);
    expect(inbound).toMatchObject({
      chat: { kind: "group", id: group },
      sender: { id: member },
      mentionsBot: true,
      text: "what time is it?",
    });
    await fake.waitFor(() => fake.groupMessages(group).length === 1);
    expect(fake.groupMessages(group)[0]).toMatchObject({ content: "echo: what time is it?", replyTo: msgId });
  });

  it("guild @-messages and guild DMs arrive as channel and direct chats", async () => {
    const account = await startAccount(fake);
    running.push(account);
    const atId = fake.userSendsGuildAt({ channelId: "9001", guildId: "77", authorId: "123", content: "hi from the guild" });
    const dmId = fake.userSendsDirect({ guildId: "78", authorId: "124", content: "hi in private" });
    const at = await account.waitForInbound((m) => m.messageId === atId);
    const dm = await account.waitForInbound((m) => m.messageId === dmId);
    expect(at).toMatchObject({ chat: { kind: "channel", id: "channel:9001" }, sender: { id: "123" }, mentionsBot: true });
    expect(at.text).toBe("hi from the guild");
    expect(dm).toMatchObject({ chat: { kind: "direct", id: "dms:78" }, sender: { id: "124" }, text: "hi in private" });
  });
});

describe("resuming", () => {
  it("after a dropped socket the next message is answered once, and the one sent while down is replayed and answered once", async () => {
    const account = await echoAccount();
    const user = openid(4);
    const first = fake.userSendsC2C({ openid: user, content: "one" });
    await fake.waitFor(() => fake.c2cMessages(user).length === 1);
    const droppedAt = Date.now();
    fake.dropSocket();
    const whileDown = fake.userSendsC2C({ openid: user, content: "two (sent while down)" });
    await fake.waitFor(() => fake.gateway.resumes === 1 && fake.gateway.connected);
    const resumedAfterMs = Date.now() - droppedAt;
    const next = fake.userSendsC2C({ openid: user, content: "three" });
    await fake.waitFor(() => fake.c2cMessages(user).length === 3);
    expect(texts(user)).toEqual(["echo: one", "echo: two (sent while down)", "echo: three"]);
    for (const id of [first, whileDown, next]) expect(fake.passiveRepliesUsed(id)).toBe(1);
    expect(account.ctx.received.map((m) => m.text)).toEqual(["one", "two (sent while down)", "three"]);
    expect(fake.gateway.identifies).toBe(1);
    // Reported by the closing note of the issue (fast test backoff: first retry after 50 ms).
    console.info(`[qqbot] resumed ${resumedAfterMs} ms after the drop`);
  });

  it("a restarted account (new connect, same stored state) resumes the session and gets what it missed", async () => {
    const cursors: CursorStore = new Map();
    const user = openid(5);
    const before = await echoAccount(cursors);
    fake.userSendsC2C({ openid: user, content: "before the restart" });
    await fake.waitFor(() => fake.c2cMessages(user).length === 1);
    await before.stop();
    running = running.filter((r) => r !== before);
    await fake.waitFor(() => !fake.gateway.connected);
    const missed = fake.userSendsC2C({ openid: user, content: "while restarting" });
    const after = await echoAccount(cursors);
    await after.waitForInbound((m) => m.messageId === missed);
    await fake.waitFor(() => fake.c2cMessages(user).length === 2);
    expect(texts(user)).toEqual(["echo: before the restart", "echo: while restarting"]);
    expect(fake.gateway.identifies).toBe(1);
    expect(fake.gateway.resumes).toBe(1);
    expect(after.ctx.received.map((m) => m.text)).toEqual(["while restarting"]);
  });

  it("a message is stored as handled only after the host recorded it: a host that fails gets it again on resume", async () => {
    const cursors: CursorStore = new Map();
    const user = openid(6);
    let refuse = true;
    let refused: () => void = () => undefined;
    const wasRefused = new Promise<void>((resolve) => {
      refused = resolve;
    });
    const first = await startAccount(fake, {
      cursors,
      onReceive: () => {
        if (!refuse) return;
        refused();
        throw new Error("the gateway is stopping");
      },
    });
    const msgId = fake.userSendsC2C({ openid: user, content: "do not lose me" });
    await wasRefused;
    await first.stop();
    refuse = false;
    const second = await startAccount(fake, { cursors });
    running.push(second);
    const again = await second.waitForInbound((m) => m.messageId === msgId);
    expect(again.text).toBe("do not lose me");
    expect(fake.gateway.resumes).toBe(1);
  });

  it("op 7 reconnects and resumes; op 9 (not resumable) identifies anew; an expired token is refreshed", async () => {
    const account = await echoAccount();
    const user = openid(7);
    fake.sendReconnect();
    await fake.waitFor(() => fake.gateway.resumes === 1 && fake.gateway.connected);
    fake.invalidateSession(false);
    await fake.waitFor(() => fake.gateway.identifies === 2 && fake.gateway.connected);
    fake.expireTokens();
    const msgId = fake.userSendsC2C({ openid: user, content: "after all that" });
    await fake.waitFor(() => fake.c2cMessages(user).length === 1, 10_000);
    expect(fake.c2cMessages(user)[0]).toMatchObject({ content: "echo: after all that", replyTo: msgId });
    expect(account.ctx.received.filter((m) => m.messageId === msgId)).toHaveLength(1);
  });
});
