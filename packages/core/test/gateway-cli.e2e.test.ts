// The built CLI end to end: `openclaw gateway --port 0` in its own process, `openclaw status`
// and `openclaw channels status` against it, a turn over the control API, then SIGTERM.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { GatewayClient } from "../src/gateway/index.js";
import { CLI_ENTRY, cliEnv, makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
let fake: FakeModelServer;
let child: ChildProcess | undefined;

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome());
  fake = await startFakeOpenAI();
  mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  writeFileSync(
    path.join(home, ".openclaw", "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: fake.baseUrl, models: [{ id: "llama" }] } } },
    }),
  );
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
  await fake.close();
  cleanup();
});

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  env.HOME = home;
  return env;
}

/** Spawns `openclaw gateway --port 0` and resolves with the port from its "listening" line. */
function startGatewayProcess(): Promise<{ port: number; stderr: () => string; stdout: () => string; exited: Promise<number | null> }> {
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], {
    env: cleanEnv(),
    cwd: home,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let stderr = "";
  let stdout = "";
  proc.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve({ port: Number(match[1]), stderr: () => stderr, stdout: () => stdout, exited });
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}) before listening:\n${stderr}`)));
  });
}

it("openclaw status without a gateway exits 1 and says how to start one", async () => {
  const run = await runCli(["status"], { home, env: { OPENCLAW_GATEWAY_PORT: "1" } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("No gateway is running at ws://127.0.0.1:1/");
  expect(run.stderr).toContain("openclaw gateway");
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  const channels = await runCli(["channels", "status"], { home, env: { OPENCLAW_GATEWAY_PORT: "1" } });
  expect(channels.code).toBe(1);
});

it("openclaw gateway --port 0 serves status and a streamed turn, and exits 0 on SIGTERM", async () => {
  const gw = await startGatewayProcess();
  const env = { OPENCLAW_GATEWAY_PORT: String(gw.port) };

  const status = await runCli(["status", "--json"], { home, env });
  expect(status.code, status.stderr).toBe(0);
  const parsed = JSON.parse(status.stdout);
  expect(parsed.gateway).toMatchObject({ port: gw.port, bind: "loopback", agents: [{ id: "main", default: true }] });
  expect(parsed.gateway.pid).toBe(child!.pid);

  const text = await runCli(["status"], { home, env });
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`Listening: ws://127.0.0.1:${gw.port}`);

  const channels = await runCli(["channels", "status", "--json"], { home, env });
  expect(channels.code, channels.stderr).toBe(0);
  expect(JSON.parse(channels.stdout)).toEqual({ channels: [] });

  const badToken = await runCli(["status", "--token", "not-the-right-token"], { home, env });
  expect(badToken.code).toBe(1);
  expect(badToken.stderr).toContain("refused the token");

  // A turn over the control API streams back, with the token the gateway generated.
  fake.enqueue([{ text: "Streaming works." }]);
  const token = readFileSync(path.join(home, ".openclaw", "gateway.token"), "utf8").trim();
  const client = await GatewayClient.connect(`ws://127.0.0.1:${gw.port}/`, { token });
  const events: { type: string; text?: string }[] = [];
  const ended = new Promise<void>((resolve) =>
    client.onEvent((frame) => {
      const event = (frame.payload as { event: { type: string; text?: string } }).event;
      events.push(event);
      if (event.type === "run_end") resolve();
    }),
  );
  await client.request("agent", { message: "hello" });
  await ended;
  expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(0);
  expect(events.find((e) => e.type === "final")?.text).toBe("Streaming works.");
  await client.close();

  child!.kill("SIGTERM");
  expect(await gw.exited).toBe(0);
  expect(gw.stderr()).toContain("SIGTERM received");
  expect(gw.stderr()).toContain("gateway stopped");
}, 30_000);

it("without --url, status, channels status and agent find a gateway started on another port through <stateDir>/gateway.json", async () => {
  const record = path.join(home, ".openclaw", "gateway.json");
  const gw = await startGatewayProcess(); // --port 0: a free port, never the default
  expect(gw.port).not.toBe(18789);
  expect(JSON.parse(readFileSync(record, "utf8"))).toMatchObject({ pid: child!.pid, port: gw.port, bind: "loopback" });

  const channels = await runCli(["channels", "status", "--json"], { home });
  expect(channels.code, channels.stderr).toBe(0);
  expect(JSON.parse(channels.stdout)).toEqual({ channels: [] });
  const status = await runCli(["status", "--json"], { home });
  expect(status.code, status.stderr).toBe(0);
  expect(JSON.parse(status.stdout).gateway).toMatchObject({ port: gw.port, pid: child!.pid });
  fake.enqueue([{ text: "Found you." }]);
  const agent = await runCli(["agent", "-m", "hello"], { home });
  expect(agent.code, agent.stderr).toBe(0);
  expect(agent.stdout).toContain("Found you.");

  child!.kill("SIGTERM");
  expect(await gw.exited).toBe(0);
  expect(existsSync(record)).toBe(false); // removed on a clean stop
}, 30_000);

it("a record left by a gateway that is gone is ignored", async () => {
  const exited = spawnSync(process.execPath, ["-e", ""]).pid;
  writeFileSync(path.join(home, ".openclaw", "gateway.json"), JSON.stringify({ pid: exited, port: 9, bind: "loopback", startedAt: 1 }));
  const config = JSON.parse(readFileSync(path.join(home, ".openclaw", "openclaw.json"), "utf8"));
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ ...config, gateway: { port: 1 } }));
  const run = await runCli(["channels", "status"], { home });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `No gateway is running at ws://127.0.0.1:1/ (none is recorded as running in ${path.join(home, ".openclaw", "gateway.json")}).`,
  );
});

it("openclaw gateway refuses to start when a configured channel's plugin is not installed", async () => {
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ channels: { telegram: { botToken: "123456:ABCDEF" } } }));
  const run = await runCli(["gateway", "--port", "0"], { home });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("channels.telegram");
  expect(run.stderr).toContain("openclaw plugins install telegram`");
  expect(run.stderr).not.toContain("listening");
});

it("openclaw gateway prints the Control UI's URL; openclaw dashboard prints the link that opens it signed in", async () => {
  const gw = await startGatewayProcess();
  await expect.poll(() => gw.stdout()).toContain(`Control UI: http://127.0.0.1:${gw.port}/`);
  const token = readFileSync(path.join(home, ".openclaw", "gateway.token"), "utf8").trim();
  expect(gw.stdout()).not.toContain(token);

  const dashboard = await runCli(["dashboard"], { home });
  expect(dashboard.code, dashboard.stderr).toBe(0);
  const link = `http://127.0.0.1:${gw.port}/#token=${encodeURIComponent(token)}`;
  expect(dashboard.stdout).toContain(link);
  expect(dashboard.stderr).toBe("");
  // The page answers at the link (the fragment stays in the browser).
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
  const json = await runCli(["dashboard", "--json"], { home });
  expect(JSON.parse(json.stdout)).toEqual({ url: `http://127.0.0.1:${gw.port}/`, link, running: true });

  child!.kill("SIGTERM");
  expect(await gw.exited).toBe(0);
}, 30_000);

it("openclaw gateway stopped by SIGTERM the moment it prints its Control UI line shuts down gracefully (exit 0)", async () => {
  // A supervisor may stop the gateway as soon as it says it is up; its handlers are set before that.
  for (let i = 0; i < 4; i++) {
    const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], { env: cliEnv(home), cwd: home });
    child = proc;
    let stdout = "";
    let stderr = "";
    proc.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    proc.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (stdout.includes("Control UI:") && !proc.killed) proc.kill("SIGTERM");
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => proc.on("close", (c, s) => resolve([c, s])));
    expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
    expect(stderr).toContain("SIGTERM received; shutting down");
  }
}, 60_000);

it("openclaw dashboard without a gateway prints the configured link and says to start one; with the UI off it refuses", async () => {
  const config = JSON.parse(readFileSync(path.join(home, ".openclaw", "openclaw.json"), "utf8"));
  const write = (gateway: unknown) => writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ ...config, gateway }));
  write({ port: 18555, auth: { token: "configured-token-0123456789" }, controlUi: { basePath: "/openclaw" } });
  const run = await runCli(["dashboard"], { home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("http://127.0.0.1:18555/openclaw/#token=configured-token-0123456789");
  expect(run.stderr).toContain("openclaw gateway");

  write({ controlUi: { enabled: false } });
  const off = await runCli(["dashboard"], { home });
  expect(off.code).toBe(1);
  expect(off.stderr).toContain("gateway.controlUi.enabled is false");
});
