import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Backoff } from "./backoff.js";
import { resolveGatewayClientTarget } from "./client-target.js";
import { isSecretKey, redactSecrets } from "../redaction/index.js";
import { gatewayRecordPath, readLiveGatewayRecord, removeGatewayRecord, writeGatewayRecord } from "./run-record.js";
import { resolveGatewayAuth, resolveGatewayBind, resolveGatewayPort } from "./settings.js";

describe("Backoff", () => {
  it("doubles from 1 s to 60 s and starts again after 5 minutes of healthy running", () => {
    const b = new Backoff();
    const delays = [0, 0, 0, 0, 0, 0, 0, 0].map(() => b.next(10));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(b.next(5 * 60_000)).toBe(1000);
    expect(b.next(10)).toBe(2000);
  });
});

describe("redactSecrets", () => {
  it("hides values under secret-named keys, deeply, and leaves counters and empty values alone", () => {
    const input = {
      gateway: { auth: { mode: "token", token: "abc" } },
      models: { providers: { x: { apiKey: "k", api_key: "k2", maxTokens: 100 } } },
      channels: { t: { botToken: "b", accounts: { a: { accessToken: "c", clientSecret: "d", appSecret: "e", password: "f" } } } },
      list: [{ secret: "g" }],
      empty: { token: "" },
      creds: { privateKey: { pem: "h" } },
    };
    const out = redactSecrets(input);
    expect(JSON.stringify(out)).not.toMatch(/"(abc|k|k2|b|c|d|e|f|g|h)"/);
    expect(out.models.providers.x.maxTokens).toBe(100);
    expect(out.empty.token).toBe("");
    expect(out.creds.privateKey).toBe("***");
    expect(input.gateway.auth.token).toBe("abc"); // a copy
    expect(["token", "apiKey", "accessToken", "clientSecret", "appSecret", "password", "botToken"].every(isSecretKey)).toBe(true);
    expect(["maxTokens", "tokenLimit", "secretary", "mode"].some(isSecretKey)).toBe(false);
  });
});

describe("gateway settings", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), "openclaw-settings-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("resolves the port as --port > OPENCLAW_GATEWAY_PORT > gateway.port > 18789", () => {
    expect(resolveGatewayPort({}, {})).toBe(18789);
    expect(resolveGatewayPort({ gateway: { port: 1000 } }, {})).toBe(1000);
    expect(resolveGatewayPort({ gateway: { port: 1000 } }, { OPENCLAW_GATEWAY_PORT: "2000" })).toBe(2000);
    expect(resolveGatewayPort({ gateway: { port: 1000 } }, { OPENCLAW_GATEWAY_PORT: "2000" }, "3000")).toBe(3000);
    expect(resolveGatewayPort({}, {}, 0)).toBe(0);
    expect(() => resolveGatewayPort({}, {}, "70000")).toThrow(/--port/);
    expect(() => resolveGatewayBind({}, "wan")).toThrow(/--bind/);
    expect(resolveGatewayBind({ gateway: { bind: "lan" } })).toBe("lan");
  });

  it("lets a token turn on auth even with mode none, and refuses mode none on lan", () => {
    const base = { env: {}, stateDir: dir, configPath: path.join(dir, "openclaw.json") };
    const none = { gateway: { auth: { mode: "none" } } };
    expect(resolveGatewayAuth({ ...base, config: none, bind: "loopback" })).toEqual({ mode: "none" });
    expect(() => resolveGatewayAuth({ ...base, config: none, bind: "lan" })).toThrow(/without auth/);
    expect(resolveGatewayAuth({ ...base, config: none, bind: "lan", flag: "0123456789abcdef" })).toMatchObject({
      mode: "token",
      source: "flag",
    });
    const generated = resolveGatewayAuth({ ...base, config: {}, bind: "lan" });
    expect(generated).toMatchObject({ mode: "token", source: "generated" });
    expect(generated.token!.length).toBeGreaterThanOrEqual(32);
  });

  it("the CLI finds the gateway from flags, env, config and the token file", async () => {
    const paths = { stateDir: dir, configPath: path.join(dir, "openclaw.json") };
    expect(await resolveGatewayClientTarget({ paths, env: {} })).toEqual({ url: "ws://127.0.0.1:18789/", urlSource: "default" });
    writeFileSync(path.join(dir, "gateway.token"), "from-file\n");
    writeFileSync(paths.configPath, "{ gateway: { port: 4242 }, channels: { nonsense: true } }");
    expect(await resolveGatewayClientTarget({ paths, env: {} })).toEqual({
      url: "ws://127.0.0.1:4242/",
      token: "from-file",
      urlSource: "config",
    });
    expect(await resolveGatewayClientTarget({ paths, env: { OPENCLAW_GATEWAY_PORT: "5000", OPENCLAW_GATEWAY_TOKEN: "from-env" } })).toEqual(
      {
        url: "ws://127.0.0.1:5000/",
        token: "from-env",
        urlSource: "env",
      },
    );
    expect(await resolveGatewayClientTarget({ paths, env: { OPENCLAW_GATEWAY_URL: "ws://h:1/" }, url: "ws://x:2/", token: "t" })).toEqual({
      url: "ws://x:2/",
      token: "t",
      urlSource: "flag",
    });
  });

  it("the CLI finds a running gateway's port in <stateDir>/gateway.json, unless its process is gone", async () => {
    const paths = { stateDir: dir, configPath: path.join(dir, "openclaw.json") };
    writeFileSync(paths.configPath, "{ gateway: { port: 4242 } }");
    writeGatewayRecord(dir, { pid: process.pid, port: 19876, bind: "lan", startedAt: 1 });
    expect(await resolveGatewayClientTarget({ paths, env: {} })).toMatchObject({ url: "ws://127.0.0.1:19876/", urlSource: "record" });
    // Explicit choices still win over the record.
    expect(await resolveGatewayClientTarget({ paths, env: { OPENCLAW_GATEWAY_PORT: "5000" } })).toMatchObject({
      url: "ws://127.0.0.1:5000/",
    });

    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    writeGatewayRecord(dir, { pid: exited, port: 19876, bind: "loopback", startedAt: 1 });
    expect(readLiveGatewayRecord(dir)).toBeUndefined();
    expect(await resolveGatewayClientTarget({ paths, env: {} })).toMatchObject({ url: "ws://127.0.0.1:4242/", urlSource: "config" });

    // Only the process that wrote the record removes it.
    removeGatewayRecord(dir, process.pid, 19876);
    expect(existsSync(gatewayRecordPath(dir))).toBe(true);
    removeGatewayRecord(dir, exited, 19876);
    expect(existsSync(gatewayRecordPath(dir))).toBe(false);
  });
});
