// The control API methods the Control UI needs, exercised through the real WebSocket API.
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createPairingStore } from "../access/index.js";
import { withStateDb } from "../state/index.js";
import { collectRun, connectAndWait, makeFakeChannel, startHarness, until, type Harness } from "./__fixtures__/harness.js";
import type { GatewayClient } from "./client.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Sends `message` with chat.send and resolves with the reply text. */
async function say(client: GatewayClient, message: string, params: Record<string, unknown> = {}) {
  return client.request<{ text: string; sessionKey: string; status: string }>("chat.send", { message, ...params });
}

describe("sessions over the control API", () => {
  it("sessions.history pages back with `before` until nextBefore is null", async () => {
    h = await startHarness();
    const client = await h.connect();
    for (let i = 1; i <= 3; i++) {
      h.fake.enqueue([{ text: `answer ${i}` }]);
      await say(client, `question ${i}`);
    }
    const all = await client.request<any>("sessions.history", { sessionKey: "main", limit: 1000 });
    expect(all.nextBefore).toBeNull();
    const seqs: number[] = all.events.map((e: any) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));

    const pages: number[][] = [];
    let before: number | null | undefined;
    do {
      const page = await client.request<any>("sessions.history", { sessionKey: "main", limit: 2, ...(before ? { before } : {}) });
      pages.unshift(page.events.map((e: any) => e.seq));
      before = page.nextBefore;
      expect(page.total).toBe(all.total);
    } while (before !== null);
    expect(pages.flat()).toEqual(seqs);
    expect(pages.at(-1)).toEqual(seqs.slice(-2));
  });

  it("sessions.search finds sessions by key, display name and transcript text", async () => {
    h = await startHarness();
    const client = await h.connect();
    h.fake.enqueue([{ text: "Noted." }]);
    await say(client, "remember the pineapple protocol", { sessionKey: "agent:main:notes" });
    h.fake.enqueue([{ text: "Hi." }]);
    await say(client, "hello", { sessionKey: "agent:main:pineapple-chat" });
    h.fake.enqueue([{ text: "Ok." }]);
    await say(client, "nothing to see", { sessionKey: "agent:main:other" });

    const found = await client.request<any>("sessions.search", { query: "PINEAPPLE" });
    expect(found.sessions.map((s: any) => [s.key, s.match])).toEqual([
      ["agent:main:pineapple-chat", "name"],
      ["agent:main:notes", "transcript"],
    ]);
    expect((await client.request<any>("sessions.search", { query: "50%_off" })).sessions).toEqual([]);
    await expect(client.request("sessions.search", { query: "  " })).rejects.toMatchObject({ code: "invalid_params" });
  });

  it("sessions.reset gives the key a new session, like /new", async () => {
    h = await startHarness();
    const client = await h.connect();
    h.fake.enqueue([{ text: "first" }]);
    await say(client, "one", { sessionKey: "agent:main:r" });
    const before = await client.request<any>("sessions.history", { sessionKey: "agent:main:r" });
    const reset = await client.request<any>("sessions.reset", { sessionKey: "agent:main:r" });
    expect(reset).toMatchObject({ ok: true, previousSessionId: before.sessionId });
    expect(reset.sessionId).not.toBe(before.sessionId);
    const after = await client.request<any>("sessions.history", { sessionKey: "agent:main:r" });
    expect(after.sessionId).toBe(reset.sessionId);
    expect(JSON.stringify(after.events)).not.toContain("first");
  });
});

describe("WebChat turns", () => {
  it("a client id picks agent:<id>:webchat:<clientId>, and chat commands are answered as in a channel", async () => {
    h = await startHarness();
    const client = await h.connect();
    h.fake.enqueue([{ text: "Hello from the fake model." }]);
    const runs = collectRun(client);
    const started = await client.request<any>("agent", { message: "hi", webchat: { clientId: "Tab-7f3a" } });
    expect(started.sessionKey).toBe("agent:main:webchat:tab-7f3a");
    expect((await runs.ended(started.runId)).find((e) => e.type === "final")).toMatchObject({ text: "Hello from the fake model." });

    // /status is answered by the chat command handler, never by the model.
    const requests = h.fake.requests.length;
    const status = await say(client, "/status", { webchat: { clientId: "tab-7f3a" } });
    expect(status.text).toContain("agent:main:webchat:tab-7f3a");
    const help = await say(client, "/help", { webchat: { clientId: "tab-7f3a" } });
    expect(help.text).toContain("/new, /reset");
    expect(h.fake.requests.length).toBe(requests);

    // /new starts a new session for the same key.
    const old = await client.request<any>("sessions.history", { sessionKey: "agent:main:webchat:tab-7f3a" });
    const fresh = await say(client, "/new", { webchat: { clientId: "tab-7f3a" } });
    expect(fresh.text).toBe("Started a new session.");
    const now = await client.request<any>("sessions.history", { sessionKey: "agent:main:webchat:tab-7f3a" });
    expect(now.sessionId).not.toBe(old.sessionId);

    await expect(say(client, "hi", { webchat: { clientId: "a:b" } })).rejects.toMatchObject({ code: "invalid_params" });
  });
});

describe("pairing over the control API", () => {
  it("lists pending codes and approved senders, approves, rejects and removes", async () => {
    h = await startHarness();
    const codes = withStateDb(h.dir, (db) => {
      const store = createPairingStore(db);
      const a = store.issue({ channel: "telegram", accountId: "default", senderId: "111", senderName: "Ann" });
      const b = store.issue({ channel: "telegram", accountId: "default", senderId: "222" });
      return [a.ok ? a.code : "", b.ok ? b.code : ""];
    });
    const client = await h.connect();
    const listed = await client.request<any>("pairing.list");
    expect(listed.pending).toEqual([
      expect.objectContaining({ channel: "telegram", accountId: "default", code: codes[0], senderId: "111", senderName: "Ann" }),
      expect.objectContaining({ channel: "telegram", code: codes[1], senderId: "222", senderName: null }),
    ]);
    expect(listed.pending[0].expiresAt).toBeGreaterThan(Date.now());
    expect(listed.allow).toEqual({});

    expect(await client.request("pairing.approve", { channel: "Telegram", code: codes[0]!.toLowerCase() })).toMatchObject({
      ok: true,
      senderId: "111",
    });
    expect(await client.request("pairing.reject", { channel: "telegram", code: codes[1] })).toMatchObject({ ok: true, senderId: "222" });
    const after = await client.request<any>("pairing.list");
    expect(after.pending).toEqual([]);
    expect(after.allow).toEqual({ telegram: [expect.objectContaining({ accountId: "default", senderId: "111", senderName: "Ann" })] });
    // The CLI's store sees the same approval.
    expect(withStateDb(h.dir, (db) => createPairingStore(db).isApproved("telegram", "default", "111"))).toBe(true);

    await expect(client.request("pairing.approve", { channel: "telegram", code: codes[1] })).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("openclaw pairing list"),
    });
    expect(await client.request("allowlist.remove", { channel: "telegram", senderId: "111" })).toMatchObject({ ok: true });
    expect((await client.request<any>("pairing.list")).allow).toEqual({});
    await expect(client.request("allowlist.remove", { channel: "telegram", senderId: "111" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("config editing over the control API", () => {
  const secretConfig = { gateway: { auth: { token: "configured-gateway-token-123" } } };

  it("config.raw hides secrets; config.set keeps them, refuses a stale hash and invalid content; the reload applies it", async () => {
    h = await startHarness({ config: secretConfig, reloadDebounceMs: 20 });
    const client = await h.connect("configured-gateway-token-123");
    const raw = await client.request<any>("config.raw");
    expect(raw.exists).toBe(true);
    expect(raw.raw).not.toContain("configured-gateway-token-123");
    expect(raw.raw).not.toContain("sk-local-provider-secret");
    expect(raw.raw).toContain('"token": "***"');
    expect(raw.hash).toMatch(/^[0-9a-f]{64}$/);

    // An edit of the redacted text: a new setting, the placeholders left alone.
    const edited = JSON.parse(raw.raw);
    edited.session = { reset: { mode: "idle", idleMinutes: 45 } };
    const text = JSON.stringify(edited, null, 2);
    expect(await client.request("config.validate", { raw: text })).toEqual({ ok: true, issues: [], warnings: expect.any(Array) });

    const invalid = await client.request<any>("config.validate", { raw: text.replace('"idleMinutes": 45', '"idleMinutes": "soon"') });
    expect(invalid.ok).toBe(false);
    expect(invalid.issues).toEqual([expect.objectContaining({ path: "session.reset.idleMinutes" })]);
    const syntax = await client.request<any>("config.validate", { raw: "{ nope" });
    expect(syntax.ok).toBe(false);
    expect(syntax.issues[0].message).toMatch(/line 1/);

    await expect(client.request("config.set", { raw: text, baseHash: "0".repeat(64) })).rejects.toMatchObject({ code: "conflict" });
    await expect(
      client.request("config.set", { raw: text.replace('"idleMinutes": 45', '"idleMinutes": "soon"'), baseHash: raw.hash }),
    ).rejects.toMatchObject({
      code: "invalid_params",
      details: { issues: [expect.objectContaining({ path: "session.reset.idleMinutes" })] },
    });

    const set = await client.request<any>("config.set", { raw: text, baseHash: raw.hash });
    expect(set.ok).toBe(true);
    expect(set.hash).not.toBe(raw.hash);
    const onDisk = JSON.parse(readFileSync(h.paths.configPath, "utf8"));
    expect(onDisk.gateway.auth.token).toBe("configured-gateway-token-123");
    expect(onDisk.models.providers.local.apiKey).toBe("sk-local-provider-secret");
    expect(onDisk.session.reset.idleMinutes).toBe(45);
    expect(readFileSync(`${h.paths.configPath}.bak`, "utf8")).not.toContain("idleMinutes");
    // The hot reload picks it up as for any edit of the file.
    await until(() => h!.gateway.config.session.reset?.idleMinutes === 45, "the reload");
    expect((await client.request<any>("config.raw")).hash).toBe(set.hash);
  });

  it("doctor.plan shows what doctor --fix would change with a diff; doctor.fix applies it", async () => {
    h = await startHarness({ reloadDebounceMs: 20 });
    const client = await h.connect();
    expect(await client.request<any>("doctor.plan")).toMatchObject({ changes: [], diff: "" });
    // A retired key written behind the gateway's back (its reload refuses the file meanwhile).
    const config = JSON.parse(readFileSync(h.paths.configPath, "utf8"));
    config.session = { idleMinutes: 30 };
    writeFileSync(h.paths.configPath, JSON.stringify(config, null, 2));

    const plan = await client.request<any>("doctor.plan");
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "session.idleMinutes", from: 30, to: null }),
        expect.objectContaining({ key: "session.reset.idleMinutes", from: null, to: 30 }),
        expect.objectContaining({ key: "session.reset.mode", from: null, to: "idle", note: expect.stringContaining("session.reset.mode") }),
      ]),
    );
    expect(plan.diff).toContain('-    "idleMinutes": 30');
    expect(plan.diff).toContain('+      "idleMinutes": 30');
    expect(plan.diff).not.toContain("sk-local-provider-secret");

    const fixed = await client.request<any>("doctor.fix");
    expect(fixed.ok).toBe(true);
    expect(fixed.applied.length).toBeGreaterThan(0);
    expect(fixed.diff).toBe(plan.diff);
    expect(JSON.parse(readFileSync(h.paths.configPath, "utf8")).session).toEqual({ reset: { idleMinutes: 30, mode: "idle" } });
    expect((await client.request<any>("doctor.plan")).changes).toEqual([]);
  });
});

describe("logs and channel events", () => {
  it("logs.tail returns the recent log lines, scrubbed", async () => {
    const channel = makeFakeChannel(async (ctx) => {
      ctx.log.info(`using token ${ctx.account.token}`);
      await connectAndWait(ctx, 1);
    });
    h = await startHarness({ plugins: [channel.plugin], config: { channels: { fakechat: { token: "fake-bot-token-secret" } } } });
    const client = await h.connect();
    await until(() => h!.logs.some((l) => l.includes("using token")), "the plugin's line");
    const { lines } = await client.request<any>("logs.tail", { lines: 500 });
    const text = lines.map((l: any) => l.message).join("\n");
    expect(text).toContain("listening on");
    expect(text).toContain("using token ***");
    expect(text).not.toContain("fake-bot-token-secret");
    expect(lines[0]).toMatchObject({ level: expect.stringMatching(/^(info|warn|error)$/), ts: expect.any(Number) });
    expect((await client.request<any>("logs.tail", { lines: 1 })).lines).toHaveLength(1);
  });

  it("pushes channels.changed with the channels.status answer when an account's state changes", async () => {
    let fail!: (err: Error) => void;
    const channel = makeFakeChannel(
      (ctx, n) =>
        new Promise<void>((resolve, reject) => {
          ctx.status({ state: "connected", identity: `@bot${n}` });
          if (n === 1) fail = reject;
          ctx.signal.addEventListener("abort", () => resolve(), { once: true });
        }),
    );
    h = await startHarness({ plugins: [channel.plugin], config: { channels: { fakechat: { token: "fake-bot-token-secret" } } } });
    const client = await h.connect();
    await until(() => channel.starts.length === 1 && h!.gateway.status()[0]!.accounts[0]!.state === "connected", "connected");
    const events: any[] = [];
    client.onEvent((frame) => {
      if (frame.event === "channels.changed") events.push(frame.payload);
    });
    fail(new Error("the platform hung up"));
    await until(() => events.some((e) => e.channels[0].accounts[0].identity === "@bot2"), "the restarted account's event");
    const states = events.map((e) => e.channels[0].accounts[0].state);
    expect(states).toContain("reconnecting");
    expect(states.at(-1)).toBe("connected");
    expect(events.at(-1)).toEqual(await client.request("channels.status"));
    expect(client.hello).toMatchObject({ features: { events: expect.arrayContaining(["channels.changed"]) } });
  });
});
