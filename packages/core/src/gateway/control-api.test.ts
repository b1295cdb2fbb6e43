import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { collectRun, connectAndWait, makeFakeChannel, startHarness, until, type Harness } from "./__fixtures__/harness.js";
import { GatewayRequestError } from "./client.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Opens a raw socket and resolves with every frame it received and the close code. */
function rawSession(url: string, frames: string[]): Promise<{ received: any[]; code: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const received: any[] = [];
    ws.on("open", () => frames.forEach((f) => ws.send(f)));
    ws.on("message", (data) => received.push(JSON.parse(String(data))));
    ws.on("close", (code) => resolve({ received, code }));
    ws.on("error", reject);
  });
}

/** Sends one frame on a fresh socket and resolves with the first frame received. */
function firstReply(url: string, frame: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on("open", () => ws.send(JSON.stringify(frame)));
    ws.on("message", (data) => {
      resolve(JSON.parse(String(data)));
      ws.close();
    });
    ws.on("error", reject);
  });
}

describe("control API authentication", () => {
  it("closes a socket whose first request is not connect, or whose token is wrong", async () => {
    h = await startHarness();
    const url = h.gateway.url;

    const early = await rawSession(url, [JSON.stringify({ type: "req", id: "1", method: "health" })]);
    expect(early.received).toEqual([{ type: "res", id: "1", ok: false, error: expect.objectContaining({ code: "unauthorized" }) }]);
    expect(early.code).toBe(1008);

    const wrong = await rawSession(url, [
      JSON.stringify({ type: "req", id: "c", method: "connect", params: { auth: { token: "x".repeat(43) } } }),
    ]);
    expect(wrong.received[0]).toMatchObject({ id: "c", ok: false, error: { code: "unauthorized" } });
    expect(wrong.code).toBe(1008);

    const missing = await rawSession(url, [JSON.stringify({ type: "req", id: "c", method: "connect", params: {} })]);
    expect(missing.received[0]).toMatchObject({ ok: false, error: { code: "unauthorized" } });

    const huge = await rawSession(url, [
      JSON.stringify({ type: "req", id: "c", method: "connect", params: { pad: "x".repeat(70 * 1024) } }),
    ]);
    expect(huge.received[0]).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
    expect(huge.code).toBe(1009);

    const garbage = await rawSession(url, ["not json"]);
    expect(garbage.received[0]).toMatchObject({ ok: false, error: { code: "bad_request" } });

    await expect(h.connect("wrong-token-wrong-token")).rejects.toMatchObject({ code: "unauthorized" });
    expect(h.logs.some((l) => l.includes("wrong or missing token"))).toBe(true);
  });

  it("accepts the right token on / and /ws, answers health and status, and serves GET /health without auth", async () => {
    h = await startHarness({ plugins: [makeFakeChannel().plugin], config: { channels: { fakechat: { token: "fake-bot-token" } } } });
    const client = await h.connect();
    expect(client.hello).toMatchObject({
      protocol: 1,
      server: { name: "openclaw" },
      features: { methods: expect.arrayContaining(["agent", "chat.send", "config.get"]) },
    });
    expect(await client.request("health")).toMatchObject({ ok: true, accepting: true });

    const status = await client.request<any>("status");
    expect(status).toMatchObject({
      pid: process.pid,
      port: h.gateway.port,
      bind: "loopback",
      host: "127.0.0.1",
      agents: [{ id: "main", default: true }],
      channels: [{ channel: "fakechat", label: "Fake Chat", accounts: 1 }],
    });
    expect(typeof status.version).toBe("string");
    expect(status.uptimeMs).toBeGreaterThanOrEqual(0);

    // The same API answers on /ws; other paths are not upgraded.
    const viaWs = await firstReply(`ws://127.0.0.1:${h.gateway.port}/ws`, {
      type: "req",
      id: "c",
      method: "connect",
      params: { auth: { token: h.gateway.token } },
    });
    expect(viaWs).toMatchObject({ id: "c", ok: true });
    await expect(firstReply(`ws://127.0.0.1:${h.gateway.port}/other`, {})).rejects.toThrow(/404/);

    await expect(client.request("no.such.method")).rejects.toMatchObject({ code: "unknown_method" });
    await expect(client.request("sessions.history", { limit: 5 })).rejects.toMatchObject({ code: "invalid_params" });

    const res = await fetch(`http://127.0.0.1:${h.gateway.port}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  }, 15_000);
});

describe("runs over the control API", () => {
  it("agent answers with a runId at once, then streams events ending with run_end and the final text", async () => {
    h = await startHarness();
    h.fake.enqueue([{ text: "Hello from the fake model." }]);
    const client = await h.connect();
    const runs = collectRun(client);
    const { runId, sessionKey } = await client.request<{ runId: string; sessionKey: string }>("agent", { message: "hi there" });
    expect(sessionKey).toBe("agent:main:main");
    const events = await runs.ended(runId);
    expect(events[0]!.type).toBe("run_start");
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(events.find((e) => e.type === "final")).toMatchObject({ text: "Hello from the fake model." });
    expect(events.at(-1)).toMatchObject({ type: "run_end", status: "ok" });
  });

  it("chat.send returns the final reply; sessions.list and sessions.history show the turn", async () => {
    h = await startHarness();
    h.fake.enqueue([{ text: "Noted." }]);
    const client = await h.connect();
    const reply = await client.request<any>("chat.send", { message: "remember the milk", sessionKey: "agent:main:errands" });
    expect(reply).toMatchObject({ status: "ok", text: "Noted.", sessionKey: "agent:main:errands", agentId: "main" });

    const list = await client.request<any>("sessions.list");
    expect(list.agentId).toBe("main");
    expect(list.sessions.map((s: { key: string }) => s.key)).toContain("agent:main:errands");

    const history = await client.request<any>("sessions.history", { sessionKey: "agent:main:errands" });
    const text = JSON.stringify(history.events);
    expect(text).toContain("remember the milk");
    expect(text).toContain("Noted.");
    const tail = await client.request<any>("sessions.history", { sessionKey: "agent:main:errands", limit: 1 });
    expect(tail.events).toHaveLength(1);
    expect(tail.total).toBe(history.total);

    await expect(client.request("sessions.history", { sessionKey: "agent:main:nope" })).rejects.toMatchObject({ code: "not_found" });
    await expect(client.request("chat.send", { message: "x", agentId: "ghost" })).rejects.toMatchObject({ code: "invalid_params" });
  });

  it("chat.abort stops a slow run", async () => {
    h = await startHarness();
    h.fake.enqueue([{ text: "Thinking hard " }, { delayMs: 20_000 }, { text: "never sent" }]);
    const client = await h.connect();
    const runs = collectRun(client);
    const { runId } = await client.request<{ runId: string }>("agent", { message: "take your time" });
    await runs.first(runId, "text_delta");
    const aborted = await client.request<{ aborted: number }>("chat.abort", { runId });
    expect(aborted.aborted).toBe(1);
    const events = await runs.ended(runId);
    expect(events.at(-1)).toMatchObject({ type: "run_end", status: "aborted" });
    expect(JSON.stringify(events)).not.toContain("never sent");
  });

  it("chat.abort by session aborts that session's run", async () => {
    h = await startHarness();
    h.fake.enqueue([{ text: "a " }, { delayMs: 20_000 }]);
    const client = await h.connect();
    const runs = collectRun(client);
    const { runId } = await client.request<{ runId: string }>("agent", { message: "go", sessionKey: "agent:main:slow" });
    await runs.first(runId, "text_delta");
    expect(await client.request("chat.abort", { sessionKey: "agent:main:slow" })).toMatchObject({ aborted: 1 });
    expect((await runs.ended(runId)).at(-1)).toMatchObject({ status: "aborted" });
  });
});

describe("config.get", () => {
  it("returns the effective config with every secret redacted", async () => {
    h = await startHarness({
      plugins: [makeFakeChannel().plugin],
      config: {
        gateway: { auth: { token: "configured-gateway-token-123" } },
        channels: { fakechat: { token: "fake-bot-token-secret", accounts: { two: { token: "second-account-secret" } } } },
      },
    });
    const client = await h.connect("configured-gateway-token-123");
    const { config } = await client.request<any>("config.get");
    const text = JSON.stringify(config);
    for (const secret of ["configured-gateway-token-123", "fake-bot-token-secret", "second-account-secret", "sk-local-provider-secret"]) {
      expect(text).not.toContain(secret);
    }
    expect(config.gateway.auth.token).toBe("***");
    expect(config.models.providers.local.apiKey).toBe("***");
    expect(config.channels.fakechat.accounts.two.token).toBe("***");
    // Defaults are applied: this is the effective config, not the file.
    expect(config.gateway.port).toBe(18789);

    expect(await client.request("config.get", { path: "channels.fakechat.token" })).toEqual({
      path: "channels.fakechat.token",
      value: "***",
    });
    expect(await client.request("config.get", { path: "gateway.bind" })).toEqual({ path: "gateway.bind", value: "loopback" });
    await expect(client.request("config.get", { path: "nothing.here" })).rejects.toBeInstanceOf(GatewayRequestError);
  });
});

describe("redaction by value", () => {
  // A provider behind a proxy that wants credentials in its URL and headers.
  const mirror = {
    baseUrl: "https://proxyuser:proxy-pass-9876@llm.internal.example/v1?api_key=query-key-5555&region=eu",
    headers: {
      Authorization: "Bearer header-bearer-4321",
      Cookie: "session=cookie-value-777",
      "X-Auth-Token": "x-auth-1234567",
      "X-Trace": "plain",
    },
    models: [{ id: "big" }],
  };
  const secrets = ["proxyuser", "proxy-pass-9876", "query-key-5555", "header-bearer-4321", "cookie-value-777", "x-auth-1234567"];

  it("config.get hides header values and URL credentials, and keeps what is not secret", async () => {
    h = await startHarness({
      config: {
        agents: { defaults: { model: "local/llama", skipBootstrap: true } },
        models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "llama" }] }, mirror } },
      },
    });
    const client = await h.connect();
    const { config } = await client.request<any>("config.get");
    const text = JSON.stringify(config);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(config.models.providers.mirror.baseUrl).toBe("https://***@llm.internal.example/v1?api_key=***&region=eu");
    expect(config.models.providers.mirror.headers).toEqual({
      Authorization: "***",
      Cookie: "***",
      "X-Auth-Token": "***",
      "X-Trace": "plain",
    });
    const headers = await client.request<any>("config.get", { path: "models.providers.mirror.headers.Authorization" });
    expect(headers.value).toBe("***");
  });

  it("the gateway log never shows a configured secret, even when a plugin logs it", async () => {
    const channel = makeFakeChannel(async (ctx) => {
      // A careless plugin: its token, the provider's URL and a header dump, as they are.
      ctx.log.info(`connecting with token ${ctx.account.token} via ${mirror.baseUrl}`);
      ctx.log.warn("request failed", { headers: { authorization: mirror.headers.Authorization } });
      await connectAndWait(ctx, 1);
    });
    h = await startHarness({
      plugins: [channel.plugin],
      config: {
        channels: { fakechat: { token: "fake-bot-token-secret" } },
        models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "llama" }] }, mirror } },
      },
    });
    await until(() => h!.logs.some((l) => l.includes("request failed")), "the plugin's lines");
    const text = h.logs.join("\n");
    expect(text).toContain("connecting with token *** via https://***@llm.internal.example/v1?api_key=***&region=eu");
    for (const secret of [...secrets, "fake-bot-token-secret"]) expect(text).not.toContain(secret);
  });
});
