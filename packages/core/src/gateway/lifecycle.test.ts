import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { type AddressInfo, connect, createServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../config/index.js";
import { collectRun, connectAndWait, makeFakeChannel, prepareHarness, startHarness, until, type Harness } from "./__fixtures__/harness.js";
import { GatewayClient, GatewayUnavailableError } from "./client.js";
import { listenEarly } from "./early-listener.js";
import { startGatewayProcess as startGateway } from "../app/index.js";

let h: Harness | undefined;
const extraCleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const fn of extraCleanup.splice(0)) await fn();
});

describe("stop()", () => {
  it("refuses new runs and inbound, lets the in-flight run finish, aborts the monitors and closes cleanly", async () => {
    const channel = makeFakeChannel();
    h = await startHarness({ plugins: [channel.plugin], config: { channels: { fakechat: { token: "t" } } } });
    await until(() => h!.gateway.status()[0]?.accounts[0]?.state === "connected", "connected");
    h.fake.enqueue([{ text: "first half, " }, { delayMs: 1500 }, { text: "second half." }]);
    const client = await h.connect();
    const runs = collectRun(client);
    const { runId } = await client.request<{ runId: string }>("agent", { message: "long answer please" });
    await runs.first(runId, "text_delta");

    const shutdown: string[] = [];
    client.onEvent((frame) => frame.event === "shutdown" && shutdown.push(frame.event));
    const stopping = h.gateway.stop({ timeoutMs: 5000 });
    await expect(client.request("agent", { message: "one more" })).rejects.toMatchObject({ code: "shutting_down" });
    await expect(client.request("chat.send", { message: "one more" })).rejects.toMatchObject({ code: "shutting_down" });
    await expect(
      channel.contexts.get("default")!.receive({
        channel: "fakechat",
        accountId: "default",
        messageId: "late",
        chat: { kind: "direct", id: "u" },
        sender: { id: "u" },
        text: "late",
        mentionsBot: false,
        receivedAt: Date.now(),
      }),
    ).rejects.toThrow(/stopping/);
    expect(await client.request("health")).toMatchObject({ accepting: false });

    const events = await runs.ended(runId);
    expect(events.find((e) => e.type === "final")).toMatchObject({ text: "first half, second half." });
    expect(events.at(-1)).toMatchObject({ status: "ok" });
    await stopping;
    expect(shutdown).toEqual(["shutdown"]);
    expect(channel.contexts.get("default")!.signal.aborted).toBe(true);
    expect(h.gateway.status()[0]!.accounts[0]!.state).toBe("stopped");
    await expect(GatewayClient.connect(h.gateway.url, { token: h.gateway.token!, timeoutMs: 1000 })).rejects.toBeInstanceOf(
      GatewayUnavailableError,
    );
    await expect(h.gateway.closed).resolves.toBeUndefined();
    expect(h.logs.at(-1)).toBe("info gateway stopped");
  });

  it("aborts a run still going at the deadline", async () => {
    h = await startHarness();
    h.fake.enqueue([{ text: "slow " }, { delayMs: 20_000 }, { text: "too late" }]);
    const client = await h.connect();
    const runs = collectRun(client);
    const { runId } = await client.request<{ runId: string }>("agent", { message: "hang" });
    await runs.first(runId, "text_delta");
    const started = Date.now();
    await h.gateway.stop({ timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(runs.events.get(runId)!.at(-1)).toMatchObject({ type: "run_end", status: "aborted" });
    expect(h.logs.some((l) => l.includes("aborted"))).toBe(true);
  });

  it("waits for plugins whose start ignores the abort only until the deadline", async () => {
    const channel = makeFakeChannel(async (ctx) => {
      ctx.status({ state: "connected" });
      await new Promise(() => undefined); // never returns
    });
    h = await startHarness({ plugins: [channel.plugin], config: { channels: { fakechat: { token: "t" } } } });
    await until(() => channel.starts.length === 1, "started");
    await h.gateway.stop({ timeoutMs: 50 });
    expect(h.logs.some((l) => l.includes("fakechat:default did not stop in time"))).toBe(true);
  });
});

describe("start-up", () => {
  it("refuses a lan bind without auth, naming the key and the fix", async () => {
    const p = await prepareHarness({ config: { gateway: { bind: "lan", auth: { mode: "none" } } } });
    extraCleanup.push(
      () => p.fake.close(),
      () => rmSync(p.dir, { recursive: true, force: true }),
    );
    const err = await startGateway({ paths: p.paths, port: 0, env: {}, plugins: [], log: p.log }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('gateway.auth.mode is "none"');
    expect((err as Error).message).toContain("bind to loopback");
    // Nothing was opened.
    expect(existsSync(path.join(p.dir, "state"))).toBe(false);
  });

  it("with auth mode none on loopback, connect needs no token", async () => {
    h = await startHarness({ config: { gateway: { auth: { mode: "none" } } } });
    expect(h.gateway.token).toBeUndefined();
    const client = await GatewayClient.connect(h.gateway.url);
    expect(await client.request("health")).toMatchObject({ ok: true });
    await client.close();
  });

  it("generates a token into <stateDir>/gateway.token (0600) and reuses it on the next start", async () => {
    h = await startHarness();
    const file = path.join(h.paths.stateDir, "gateway.token");
    expect(readFileSync(file, "utf8").trim()).toBe(h.gateway.token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(h.logs.some((l) => l.includes("generated a control API token"))).toBe(true);
    const token = h.gateway.token;
    await h.gateway.stop();
    const again = await startGateway({
      paths: h.paths,
      port: 0,
      env: {},
      plugins: [],
      log: h.log,
      pipelineFactory: () => ({ handleInbound: async () => undefined }),
    });
    extraCleanup.push(() => again.stop());
    expect(again.token).toBe(token);
  });

  it("token precedence: --token > gateway.auth.token > OPENCLAW_GATEWAY_TOKEN > file", async () => {
    const p = await prepareHarness({ config: { gateway: { auth: { token: "from-config-0123456789" } } } });
    extraCleanup.push(
      () => p.fake.close(),
      () => rmSync(p.dir, { recursive: true, force: true }),
    );
    const base = { paths: p.paths, port: 0, plugins: [], log: p.log, pipelineFactory: () => ({ handleInbound: async () => undefined }) };
    const a = await startGateway({ ...base, env: { OPENCLAW_GATEWAY_TOKEN: "from-env-0123456789abc" }, token: "from-flag-0123456789ab" });
    expect(a.token).toBe("from-flag-0123456789ab");
    await a.stop();
    const b = await startGateway({ ...base, env: { OPENCLAW_GATEWAY_TOKEN: "from-env-0123456789abc" } });
    expect(b.token).toBe("from-config-0123456789");
    await b.stop();
    writeFileSync(p.paths.configPath, JSON.stringify({}));
    const c = await startGateway({ ...base, env: { OPENCLAW_GATEWAY_TOKEN: "from-env-0123456789abc" } });
    expect(c.token).toBe("from-env-0123456789abc");
    await c.stop();
    expect(existsSync(path.join(p.dir, "gateway.token"))).toBe(false);
    await expect(startGateway({ ...base, env: {}, token: "short" })).rejects.toThrow(/at least 16/);
  });

  it("port precedence: --port > OPENCLAW_GATEWAY_PORT > gateway.port", async () => {
    const p = await prepareHarness({ config: { gateway: { port: 1 } } });
    extraCleanup.push(
      () => p.fake.close(),
      () => rmSync(p.dir, { recursive: true, force: true }),
    );
    const base = { paths: p.paths, plugins: [], log: p.log, pipelineFactory: () => ({ handleInbound: async () => undefined }) };
    // The env beats gateway.port (1, which would fail to bind); port 0 picks a free port.
    const a = await startGateway({ ...base, env: { OPENCLAW_GATEWAY_PORT: "0" } });
    expect(a.port).toBeGreaterThan(1024);
    // --port beats the env.
    const b = await startGateway({ ...base, env: { OPENCLAW_GATEWAY_PORT: String(a.port) }, port: 0 });
    expect(b.port).not.toBe(a.port);
    await b.stop();
    // Same port as a running gateway: a clear error.
    await expect(startGateway({ ...base, env: {}, port: a.port })).rejects.toThrow(/already in use/);
    await a.stop();
    await expect(startGateway({ ...base, env: { OPENCLAW_GATEWAY_PORT: "http" } })).rejects.toThrow(/OPENCLAW_GATEWAY_PORT/);
  });

  it("applies the safe doctor migrations to the file, keeps a backup and logs each change", async () => {
    const channel = makeFakeChannel(connectAndWait);
    h = await startHarness({
      plugins: [channel.plugin],
      config: { channels: { fakechat: { token: "t", streamMode: "off", accounts: { b: { token: "u", blockStreaming: true } } } } },
    });
    const written = JSON.parse(readFileSync(h.paths.configPath, "utf8"));
    expect(written.channels.fakechat).toEqual({
      token: "t",
      streaming: { mode: "off" },
      accounts: { b: { token: "u", streaming: { block: { enabled: true } } } },
    });
    expect(JSON.parse(readFileSync(`${h.paths.configPath}.bak`, "utf8")).channels.fakechat.streamMode).toBe("off");
    expect(h.logs).toContain('info config migrated: channels.fakechat.streamMode -> channels.fakechat.streaming.mode: "off"');
    expect(h.logs.some((l) => l.includes("config migrated: channels.fakechat.accounts.b.blockStreaming"))).toBe(true);
    expect(h.logs.some((l) => l.includes(".bak"))).toBe(true);
  });

  it("refuses to start with an invalid config, and when a configured channel has no plugin", async () => {
    const bad = await prepareHarness({ config: { gateway: { port: "many" } } });
    extraCleanup.push(
      () => bad.fake.close(),
      () => rmSync(bad.dir, { recursive: true, force: true }),
    );
    await expect(startGateway({ paths: bad.paths, port: 0, env: {}, plugins: [], log: bad.log })).rejects.toThrow(/gateway\.port/);

    const missing = await prepareHarness({ config: { channels: { telegram: { botToken: "123:abc" } } } });
    extraCleanup.push(
      () => missing.fake.close(),
      () => rmSync(missing.dir, { recursive: true, force: true }),
    );
    const err = await startGateway({ paths: missing.paths, port: 0, env: {}, plugins: [], log: missing.log }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain("openclaw plugins install telegram`");
  });

  it("imports legacy JSON sessions into the store at start", async () => {
    const p = await prepareHarness();
    extraCleanup.push(
      () => p.fake.close(),
      () => rmSync(p.dir, { recursive: true, force: true }),
    );
    const dir = path.join(p.dir, "agents", "main", "sessions");
    mkdirSync(dir, { recursive: true });
    const sessionId = "11111111-2222-4333-8444-555555555555";
    writeFileSync(path.join(dir, "sessions.json"), JSON.stringify({ "agent:main:old": { sessionId, updatedAt: 1_700_000_000_000 } }));
    writeFileSync(
      path.join(dir, `${sessionId}.jsonl`),
      [
        { type: "session", id: sessionId, timestamp: "2023-11-14T22:13:20.000Z", cwd: "/tmp" },
        {
          type: "message",
          id: "a1",
          parentId: null,
          timestamp: "2023-11-14T22:13:21.000Z",
          message: { role: "user", content: "old hello" },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const gateway = await startGateway({
      paths: p.paths,
      port: 0,
      env: {},
      plugins: [],
      log: p.log,
      pipelineFactory: () => ({ handleInbound: async () => undefined }),
    });
    extraCleanup.unshift(() => gateway.stop());
    expect(p.logs.some((l) => l.includes("imported 1 legacy session"))).toBe(true);
    const client = await GatewayClient.connect(gateway.url, { token: gateway.token! });
    const history = await client.request<any>("sessions.history", { sessionKey: "agent:main:old" });
    expect(JSON.stringify(history.events)).toContain("old hello");
    await client.close();
  });
});

/** GET `path` on 127.0.0.1:`port`; resolves with the status and body. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Resolves true when a TCP connection to the port is accepted, false when it is refused. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the early-bound control port", () => {
  it("accepts connections before the gateway started and serves what waited once it has", async () => {
    const listener = await listenEarly("127.0.0.1", 0);
    const served: string[] = [];
    const health = get(listener.port, "/health").then((r) => (served.push("health"), r));
    const client = GatewayClient.connect(`ws://127.0.0.1:${listener.port}/`, {
      token: "early-listener-token-0123456789",
      timeoutMs: 25_000,
    }).then((c) => (served.push("client"), c));
    // The request reached the listener, which holds it: nothing is answered before the gateway started.
    await new Promise<void>((resolve) => listener.server.once("request", () => resolve()));
    expect(served).toEqual([]);

    h = await startHarness({ listener, token: "early-listener-token-0123456789" });
    expect(h.gateway.port).toBe(listener.port);
    await expect(health).resolves.toEqual({ status: 200, body: '{"ok":true}' });
    const connected = await client;
    await expect(connected.request("health")).resolves.toMatchObject({ accepting: true });
    await connected.close();
  });

  it("is closed when the gateway does not start", async () => {
    const listener = await listenEarly("127.0.0.1", 0);
    const p = await prepareHarness({ config: { gateway: { bind: "lan", auth: { mode: "none" } } } });
    extraCleanup.push(
      () => p.fake.close(),
      () => rmSync(p.dir, { recursive: true, force: true }),
    );
    const waiting = get(listener.port, "/health").then(
      () => "answered",
      () => "dropped",
    );
    await expect(startGateway({ paths: p.paths, port: 0, env: {}, plugins: [], log: p.log, listener })).rejects.toThrow(
      /gateway.auth.mode is "none"/,
    );
    await expect(waiting).resolves.toBe("dropped");
    expect(await accepts(listener.port)).toBe(false);
  });

  it("is given up when the gateway resolves another port", async () => {
    const listener = await listenEarly("127.0.0.1", 0);
    const configured = await freePort();
    h = await startHarness({ listener, port: configured });
    expect(h.gateway.port).toBe(configured);
    expect(await accepts(listener.port)).toBe(false);
    await expect(get(configured, "/health")).resolves.toMatchObject({ status: 200 });
  });
});
