import { mergeAccountConfig, PermanentSendError, RateLimitedError, type AccountContext, type InboundMessage } from "@openclaw/plugin-sdk";
import { createTestAccountContext } from "@openclaw/plugin-sdk/testing";
import { describe, expect, it } from "vitest";
import { createLoopbackPlatform } from "./platform.js";
import { createLoopbackPlugin, type LoopbackAccount } from "./plugin.js";

const dm = { id: "u1", kind: "direct" as const };

describe("loopback platform", () => {
  it("shows a chat as its user sees it: current texts, edit histories, deleted messages", async () => {
    const platform = createLoopbackPlatform();
    const bot = platform.bot("b");
    const first = await bot.sendMessage(dm, "Hel", { priority: "preview", idempotencyKey: "k#0" });
    await bot.editMessage("u1", first.messageId, "Hello");
    const second = await bot.sendMessage(dm, "stale");
    await bot.deleteMessage("u1", second.messageId);
    await bot.sendTyping("u1");
    const view = platform.chatView("u1");
    expect(view.texts).toEqual(["Hello"]);
    expect(view.messages[0]).toMatchObject({ edits: 1, history: ["Hel", "Hello"] });
    expect(view.deleted).toMatchObject([{ text: "stale" }]);
    expect(view.typing).toBe(1);
    expect(platform.calls.map((c) => `${c.op}:${c.ok}`)).toEqual(["send:true", "edit:true", "send:true", "delete:true", "typing:true"]);
    expect(platform.calls[0]).toMatchObject({ priority: "preview", idempotencyKey: "k#0" });
  });

  it("refuses what real platforms refuse: too long, empty, unknown or foreign messages", async () => {
    const platform = createLoopbackPlatform({ textLimit: 10, editLimit: 5 });
    const bot = platform.bot("b");
    await expect(bot.sendMessage(dm, "x".repeat(11))).rejects.toThrow(/too long/);
    await expect(bot.sendMessage(dm, "  ")).rejects.toThrow(/empty/);
    const { messageId } = await bot.sendMessage(dm, "1234567890");
    await expect(bot.editMessage("u1", messageId, "123456")).rejects.toBeInstanceOf(PermanentSendError);
    await expect(platform.bot("other").editMessage("u1", messageId, "hi")).rejects.toThrow(/not found/);
    expect(platform.calls.filter((c) => !c.ok).map((c) => c.error)).toEqual(["too_long", "empty", "too_long", "not_found"]);
  });

  it("answers injected 429s and enforces their retry-after on the chat", async () => {
    let now = 1000;
    const platform = createLoopbackPlatform({ now: () => now });
    const bot = platform.bot("b");
    platform.rateLimit(1, 500);
    const error = await bot.sendMessage(dm, "a").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(500);
    now += 200;
    await expect(bot.sendMessage(dm, "b")).rejects.toMatchObject({ retryAfterMs: 300 }); // too early: penalty
    await expect(bot.sendMessage({ id: "u2", kind: "direct" }, "other chat")).resolves.toBeTruthy();
    now += 300;
    await expect(bot.sendMessage(dm, "c")).resolves.toBeTruthy();
    expect(platform.chatView("u1").texts).toEqual(["c"]);
  });

  it("refuses edits on demand, fails the next call of an op, and delays calls", async () => {
    const platform = createLoopbackPlatform();
    const bot = platform.bot("b");
    const { messageId } = await bot.sendMessage(dm, "one");
    platform.failEdits(1);
    await expect(bot.editMessage("u1", messageId, "two")).rejects.toThrow(/can't be edited/);
    await bot.editMessage("u1", messageId, "two");
    platform.failNext("send", new Error("socket hang up"));
    await expect(bot.sendMessage(dm, "x")).rejects.toThrow("socket hang up");
    platform.setLatency({ send: 30 });
    const started = Date.now();
    await bot.sendMessage(dm, "slow");
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(platform.chatView("u1").texts).toEqual(["two", "slow"]);
  });

  it("can forget old messages and calls, so a long benchmark does not grow the fake", async () => {
    const platform = createLoopbackPlatform({ retainMessages: 2, recordCalls: false });
    const bot = platform.bot("b");
    const first = await bot.sendMessage(dm, "1");
    await bot.sendMessage(dm, "2");
    await bot.sendMessage(dm, "3");
    expect(platform.chatView("u1").texts).toEqual(["2", "3"]);
    await expect(bot.editMessage("u1", first.messageId, "1!")).rejects.toThrow(/not found/);
    expect(platform.calls).toEqual([]);
  });

  it("lists idempotency keys sent twice", async () => {
    const platform = createLoopbackPlatform();
    const bot = platform.bot("b");
    await bot.sendMessage(dm, "a", { idempotencyKey: "r1#f0" });
    await bot.sendMessage(dm, "a", { idempotencyKey: "r1#f0" });
    await bot.sendMessage(dm, "b", { idempotencyKey: "r1#f1" });
    expect(platform.duplicateSends()).toEqual(["r1#f0"]);
  });

  it("native streams: hidden until the first text; replace shows the last update, append grows by each; closed after finish", async () => {
    const platform = createLoopbackPlatform({ textLimit: 20 });
    const bot = platform.bot("b");
    const replace = await bot.openStream(dm, { mode: "replace", inReplyTo: "7" });
    expect(platform.chatView("u1").messages).toEqual([]);
    await replace.update("Hel");
    await replace.update("Hello wor");
    await replace.finish("Hello world.");
    await expect(replace.update("more")).rejects.toThrow(/finished/);
    const append = await bot.openStream(dm, { mode: "append" });
    await append.update("One");
    await append.update(", two");
    await expect(append.update("x".repeat(20))).rejects.toThrow(/too long/);
    await append.abort();
    const view = platform.chatView("u1");
    expect(view.messages.map((m) => [m.text, m.history, m.stream])).toEqual([
      ["Hello world.", ["Hel", "Hello wor", "Hello world."], "finished"],
      ["One, two", ["One", "One, two"], "aborted"],
    ]);
    expect(platform.calls.map((c) => `${c.op}:${c.ok}`)).toEqual([
      "stream-open:true",
      "stream-update:true",
      "stream-update:true",
      "stream-finish:true",
      "stream-update:false",
      "stream-open:true",
      "stream-update:true",
      "stream-update:true",
      "stream-update:false",
      "stream-abort:true",
    ]);
    expect(platform.calls[0]).toMatchObject({ inReplyTo: "7" });
  });

  it("a reply quota refuses the call past it for one user message; edits are free, other messages have their own", async () => {
    const platform = createLoopbackPlatform({ replyQuota: { perInbound: 3, windowMs: 60_000 } });
    const bot = platform.bot("b");
    await bot.sendTyping("u1", { inReplyTo: "7" });
    const { messageId } = await bot.sendMessage(dm, "one", { inReplyTo: "7" });
    await bot.editMessage("u1", messageId, "one!", { inReplyTo: "7" });
    await bot.sendMessage(dm, "two", { inReplyTo: "7" });
    await expect(bot.sendMessage(dm, "three", { inReplyTo: "7" })).rejects.toMatchObject({ code: "reply_quota" });
    await bot.sendMessage(dm, "to another message", { inReplyTo: "8" });
    await bot.sendMessage(dm, "proactive");
    expect(platform.chatView("u1").texts).toEqual(["one!", "two", "to another message", "proactive"]);
    expect(platform.calls.filter((c) => !c.ok).map((c) => c.error)).toEqual(["reply_quota"]);
  });

  it("media: a file with its caption as the message text", async () => {
    const platform = createLoopbackPlatform();
    const bot = platform.bot("b");
    const sent = await bot.sendMedia(dm, { kind: "document", source: "/tmp/report.pdf", fileName: "report.pdf", caption: "The report" });
    expect(platform.chatView("u1").messages).toEqual([
      expect.objectContaining({
        messageId: sent.messageId,
        text: "The report",
        media: { kind: "document", source: "/tmp/report.pdf", fileName: "report.pdf" },
      }),
    ]);
    expect(platform.calls.map((c) => c.op)).toEqual(["media"]);
  });

  it("queues updates until the bot connects and delivers them in order, one at a time", async () => {
    const platform = createLoopbackPlatform();
    const seen: string[] = [];
    const first = platform.userSays({ sender: "u1", text: "one", bot: "b" });
    const second = platform.userSays({ sender: "u1", text: "two", bot: "b" });
    let active = 0;
    platform.bot("b").connect(async (payload) => {
      active += 1;
      expect(active).toBe(1);
      await new Promise((r) => setTimeout(r, 5));
      seen.push((payload as { message: { text: string } }).message.text);
      active -= 1;
    });
    await Promise.all([first, second]);
    expect(seen).toEqual(["one", "two"]);
    expect(platform.chatView("u1").userMessages.map((m) => m.text)).toEqual(["one", "two"]);
  });
});

describe("loopback plugin", () => {
  async function running(options: Parameters<typeof createLoopbackPlugin>[1] = {}) {
    const platform = createLoopbackPlatform({ textLimit: 500 });
    const plugin = createLoopbackPlugin(platform, options);
    const received: InboundMessage[] = [];
    const warnings: string[] = [];
    const stop = new AbortController();
    const channel = { accounts: { work: { dmPolicy: "open" } } };
    const account = plugin.resolveAccount({ accountId: "work", config: mergeAccountConfig(channel, "work"), channel, env: {} });
    const ctx: AccountContext<LoopbackAccount> = {
      accountId: "work",
      account,
      signal: stop.signal,
      receive: async (m) => void received.push(m),
      status: () => undefined,
      log: { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
      credentialsDir: "/nonexistent",
      cursor: { get: () => undefined, set: () => undefined },
    };
    const session = await plugin.connect(ctx);
    const started = session.closed;
    return { platform, plugin, received, warnings, account, stop, started, session };
  }

  it('lists accounts (the root is "default" only without named ones) and validates its config', () => {
    const plugin = createLoopbackPlugin(createLoopbackPlatform());
    expect(plugin.listAccounts({}, {})).toEqual(["default"]);
    expect(plugin.listAccounts({ accounts: { a: {}, b: {} } }, {})).toEqual(["a", "b"]);
    expect(
      plugin.config.schema.safeParse({
        streaming: { mode: "progress", block: { enabled: true } },
        accounts: { a: { dmPolicy: "pairing" } },
      }).success,
    ).toBe(true);
    expect(plugin.config.schema.safeParse({ streaming: { mode: "quiet" } }).success).toBe(false);
    expect(plugin.config.delivery).toEqual({
      previewModes: ["partial", "block", "progress"],
      defaultMode: "partial",
      blockReplies: "explicit",
    });
  });

  it("normalizes inbound messages and rejects malformed ones without stopping", async () => {
    const { platform, received, warnings, stop, started, account } = await running();
    expect(account).toMatchObject({ accountId: "work", botId: "work", config: { dmPolicy: "open" } });
    await platform.injectRaw({ type: "message", message: { text: "no chat" } }, { bot: "work" });
    await platform.injectRaw({ type: "reaction" }, { bot: "work" });
    await platform.userSays({
      chat: "g1",
      kind: "group",
      sender: { id: "u2", name: "Ann" },
      text: "@bot hi",
      mentionsBot: true,
      bot: "work",
    });
    expect(warnings).toEqual([expect.stringContaining("rejected a malformed update: message.messageId")]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      channel: "loopback",
      accountId: "work",
      chat: { kind: "group", id: "g1" },
      sender: { id: "u2", name: "Ann" },
      text: "@bot hi",
      mentionsBot: true,
    });
    stop.abort();
    await started;
    expect(platform.connectedBots()).toEqual([]);
  });

  it("drops the outbound methods a capability override switches off", async () => {
    const plugin = createLoopbackPlugin(createLoopbackPlatform(), {
      id: "lb2",
      capabilities: { edit: false, delete: false, typing: false },
    });
    const ctx = createTestAccountContext(plugin.resolveAccount({ accountId: "default", config: {}, channel: {}, env: {} }));
    const outbound = await plugin.connect(ctx);
    ctx.stop();
    await outbound.closed;
    expect(plugin.id).toBe("lb2");
    expect(plugin.config.id).toBe("lb2");
    expect([outbound.editText, outbound.deleteMessage, outbound.typing]).toEqual([undefined, undefined, undefined]);
    expect([outbound.sendMedia, outbound.openStream]).toEqual([undefined, undefined]);
  });

  it("adds sendMedia and a native stream of the declared semantics; every call carries inReplyTo", async () => {
    const platform = createLoopbackPlatform();
    const plugin = createLoopbackPlugin(platform, { capabilities: { media: true, nativeStream: "append" } });
    const ctx = createTestAccountContext(plugin.resolveAccount({ accountId: "default", config: {}, channel: {}, env: {} }));
    const outbound = await plugin.connect(ctx);
    const options = { signal: new AbortController().signal, priority: "block" as const, format: "markdown" as const, idempotencyKey: "r1" };
    const stream = (await outbound.openStream!({ chat: dm }, { ...options, inReplyTo: "41" }))!;
    await stream.update("Streaming ");
    await stream.update("text");
    const finished = await stream.finish(".");
    await outbound.sendMedia!(
      { chat: dm },
      { kind: "image", source: "https://example.com/a.png", caption: "A picture" },
      { ...options, inReplyTo: "41" },
    );
    expect(platform.chatView("u1").texts).toEqual(["Streaming text.", "A picture"]);
    expect(finished.messageId).toBe(platform.chatView("u1").messages[0]!.messageId);
    expect(platform.calls.map((c) => c.inReplyTo)).toEqual(["41", "41", "41", "41", "41"]);
    ctx.stop();
    await outbound.closed;
  });
});
