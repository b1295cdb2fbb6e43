import { statSync } from "node:fs";
import path from "node:path";
import { AccountConfigError, type InboundMessage } from "@openclaw/plugin-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { connectAndWait, makeFakeChannel, startHarness, until, type Harness } from "./__fixtures__/harness.js";
import type { AccountHandle, InboundPipeline } from "./types.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const fakechat = (extra: Record<string, unknown> = {}) => ({ channels: { fakechat: { token: "root-token", ...extra } } });

function account(harness: Harness, accountId = "default") {
  return harness.gateway
    .status()
    .find((c) => c.channel === "fakechat")
    ?.accounts.find((a) => a.accountId === accountId);
}

describe("AccountManager", () => {
  it("restarts an account whose start throws, reporting reconnecting and then connected", async () => {
    const secondRun = deferred();
    const release = deferred();
    const channel = makeFakeChannel(async (ctx, n) => {
      if (n === 1) throw new Error("the platform hung up");
      secondRun.resolve();
      await release.promise;
      await connectAndWait(ctx, n);
    });
    h = await startHarness({ plugins: [channel.plugin], config: fakechat() });

    await secondRun.promise;
    expect(account(h)).toMatchObject({ state: "reconnecting", restarts: 1, lastError: "the platform hung up" });
    expect(account(h)!.detail).toContain("the platform hung up");

    release.resolve();
    await until(() => account(h!)?.state === "connected", "connected");
    expect(account(h)).toMatchObject({ state: "connected", identity: "@default_bot", restarts: 1, lastError: "the platform hung up" });
    expect(account(h)!.detail).toBeUndefined();
    expect(h.logs.some((l) => l.startsWith("warn account fakechat:default crashed: the platform hung up"))).toBe(true);
    expect(h.logs).toContain("info account fakechat:default restarted (restart #1)");

    const client = await h.connect();
    const { channels } = await client.request<any>("channels.status");
    expect(channels[0].accounts[0]).toMatchObject({ state: "connected", restarts: 1 });
  });

  it("keeps the details a plugin reports (device, verification) in channels.status; an empty map clears them", async () => {
    const verified = deferred();
    const channel = makeFakeChannel(async (ctx) => {
      ctx.status({ state: "connected", identity: "@bot:example.org", details: { device: "ABCDEFGHIJ", verified: "no" } });
      await verified.promise;
      ctx.status({ details: { device: "ABCDEFGHIJ", verified: "yes" } });
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    });
    h = await startHarness({ plugins: [channel.plugin], config: fakechat() });
    await until(() => account(h!)?.details?.verified === "no", "the first details");
    verified.resolve();
    await until(() => account(h!)?.details?.verified === "yes", "the verified device");
    const client = await h.connect();
    const { channels } = await client.request<any>("channels.status");
    expect(channels[0].accounts[0]).toMatchObject({ identity: "@bot:example.org", details: { device: "ABCDEFGHIJ", verified: "yes" } });
    channel.contexts.get("default")!.status({ details: {} });
    expect(account(h)!.details).toBeUndefined();
  });

  it("treats a session that closes before a stop as a crash, and backs off with growing delays", async () => {
    const channel = makeFakeChannel(async (ctx, n) => {
      if (n < 4) return; // returns at once: not a clean stop
      await connectAndWait(ctx, n);
    });
    h = await startHarness({ plugins: [channel.plugin], config: fakechat(), backoff: { initialMs: 5, maxMs: 10 } });
    await until(() => account(h!)?.state === "connected", "connected");
    expect(account(h)!.restarts).toBe(3);
    const delays = h.logs.filter((l) => l.includes("crashed")).map((l) => l.replace(/.*restarting in /, ""));
    expect(delays).toEqual(["5 ms", "10 ms", "10 ms"]);
    expect(account(h)!.lastError).toContain("closed before the account was asked to stop");
  });

  it("marks an account with a config error as error without stopping the others; disabled accounts are stopped", async () => {
    const channel = makeFakeChannel();
    h = await startHarness({
      plugins: [channel.plugin],
      config: { channels: { fakechat: { accounts: { good: { token: "t-good" }, broken: {}, off: { token: "t-off", enabled: false } } } } },
    });
    await until(() => account(h!, "good")?.state === "connected", "good connected");
    expect(account(h, "broken")).toMatchObject({ state: "error", restarts: 0 });
    expect(account(h, "broken")!.detail).toContain("channels.fakechat.accounts.broken.token is not set");
    expect(account(h, "off")).toMatchObject({ state: "stopped" });
    expect(account(h, "off")!.detail).toContain("enabled is false");
    expect(channel.starts.map((s) => s.accountId).sort()).toEqual(["good"]);
  });

  it("keeps an account that needs linking in needs-login with the command to run, also when its plugin gives up with AccountConfigError", async () => {
    const channel = makeFakeChannel(async (ctx) => {
      ctx.status({ state: "needs-login", detail: "not linked" });
      if (ctx.accountId === "gives-up") throw new AccountConfigError("no login state", "channels.fakechat");
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    });
    h = await startHarness({ plugins: [channel.plugin], config: fakechat({ accounts: { "gives-up": { token: "t" } } }) });
    await until(() => account(h!)?.state === "needs-login" && account(h!, "gives-up")?.lastError !== undefined, "both accounts waiting");
    expect(account(h)).toMatchObject({ state: "needs-login", detail: "not linked", loginCommand: "openclaw channels login fakechat" });
    expect(account(h, "gives-up")).toMatchObject({
      state: "needs-login",
      detail: "not linked",
      loginCommand: "openclaw channels login fakechat --account gives-up",
      lastError: "no login state",
      restarts: 0,
    });
    const ctx = channel.contexts.get("default")!;
    ctx.status({ state: "connected" });
    expect(account(h)!.loginCommand).toBeUndefined();
  });

  it("gives each account a cursor that survives restarts and a private credentials folder", async () => {
    const seen: (string | undefined)[] = [];
    let credentialsDir = "";
    const channel = makeFakeChannel(async (ctx, n) => {
      seen.push(ctx.cursor.get("offset"));
      ctx.cursor.set("offset", String(n * 100));
      credentialsDir = ctx.credentialsDir;
      if (n === 1) throw new Error("boom");
      await connectAndWait(ctx, n);
    });
    h = await startHarness({ plugins: [channel.plugin], config: fakechat() });
    await until(() => account(h!)?.state === "connected", "connected");
    expect(seen).toEqual([undefined, "100"]);
    expect(credentialsDir).toBe(path.join(h.paths.stateDir, "credentials", "fakechat", "default"));
    expect(statSync(credentialsDir).mode & 0o777).toBe(0o700);
  });

  it("hands inbound messages to the pipeline with the account handle and stamps traffic times", async () => {
    const received: { message: InboundMessage; handle: AccountHandle }[] = [];
    const pipeline: InboundPipeline = {
      async handleInbound(message, handle) {
        received.push({ message, handle });
        await handle.outbound.sendText({ chat: message.chat }, `echo: ${message.text}`, {
          signal: handle.signal,
          priority: "final",
          format: "plain",
          idempotencyKey: `reply-${message.messageId}`,
        });
      },
    };
    const channel = makeFakeChannel();
    h = await startHarness({ plugins: [channel.plugin], config: fakechat(), pipelineFactory: () => pipeline });
    await until(() => account(h!)?.state === "connected", "connected");
    expect(account(h)!.lastInboundAt).toBeUndefined();

    const ctx = channel.contexts.get("default")!;
    await ctx.receive({
      channel: "fakechat",
      accountId: "default",
      messageId: "m1",
      chat: { kind: "direct", id: "u1" },
      sender: { id: "u1" },
      text: "ping",
      mentionsBot: false,
      receivedAt: Date.now(),
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.handle).toMatchObject({ channel: "fakechat", accountId: "default", account: { token: "root-token" } });
    expect(received[0]!.handle.config.token).toBe("root-token");
    expect(channel.sent).toEqual([{ accountId: "default", target: { chat: { kind: "direct", id: "u1" } }, text: "echo: ping" }]);
    expect(account(h)!.lastInboundAt).toBeTypeOf("number");
    expect(account(h)!.lastOutboundAt).toBeTypeOf("number");
    expect(h.gateway.status()[0]!.accounts[0]!.lastOutboundAt).toBeGreaterThanOrEqual(account(h)!.lastInboundAt!);
  });
});
