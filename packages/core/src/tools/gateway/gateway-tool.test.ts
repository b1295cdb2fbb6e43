import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createGatewayTool, gatewayToolsFor, type ConfigReloadReport, type GatewayToolHost } from "../index.js";

let box: TestSandbox;
let file: string;
let reloads: number;
let host: GatewayToolHost;
const APPLIED: ConfigReloadReport = { outcome: "applied", applied: ["agents"], needsRestart: [] };

const SECRET = "sk-live-very-secret-key-123";
const ORIGINAL = {
  agents: { defaults: { model: "local/llama" } },
  models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", apiKey: SECRET, models: [{ id: "llama" }] } } },
};

beforeEach(() => {
  box = makeSandbox();
  file = path.join(box.stateDir, "openclaw.json");
  writeFileSync(file, JSON.stringify(ORIGINAL, null, 2));
  reloads = 0;
  host = {
    configPath: file,
    env: {},
    reload: async () => {
      reloads++;
      return APPLIED;
    },
  };
});
afterEach(() => box.cleanup());

const readJson = (f: string) => JSON.parse(readFileSync(f, "utf8")) as Record<string, any>;

describe("gateway tool", () => {
  it("is offered only in the owner's main session and refuses any other session", async () => {
    const config = makeConfig(ORIGINAL);
    expect(gatewayToolsFor({ config, agentId: "main", sessionKey: "agent:main:main", host }).map((t) => t.name)).toEqual(["gateway"]);
    expect(gatewayToolsFor({ config, agentId: "main", sessionKey: "agent:main:loopback:direct:stranger", host })).toEqual([]);
    // Groups routed into the main session share it: no gateway tool there either.
    const sharedWithGroups = makeConfig({ ...ORIGINAL, session: { groupScope: "main" } });
    expect(gatewayToolsFor({ config: sharedWithGroups, agentId: "main", sessionKey: "agent:main:main", host })).toEqual([]);

    const tool = createGatewayTool(host);
    for (const ctx of [makeCtx(box, { config, sessionKey: "agent:main:loopback:group:g1" }), makeCtx(box, { config: sharedWithGroups })]) {
      const result = await tool.execute({ action: "config.patch", patch: { agents: { defaults: { model: "local/other" } } } }, ctx);
      expect(result.isError).toBe(true);
      expect(result.content).toContain("only in the owner's main session");
    }
    expect(readJson(file)).toEqual(ORIGINAL);
    expect(reloads).toBe(0);
  });

  it("shows the running config with secrets as ***", async () => {
    const result = await createGatewayTool(host).execute(
      { action: "config.get", path: "models.providers.local" },
      makeCtx(box, { config: makeConfig(ORIGINAL) }),
    );
    expect(result.isError).toBeFalsy();
    expect(result.content).not.toContain(SECRET);
    expect(JSON.parse(result.content)).toMatchObject({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "***" });
  });

  it("applies a merge patch through the locked atomic write, keeps the previous file as .bak, and reloads", async () => {
    const ctx = makeCtx(box, { config: makeConfig(ORIGINAL) });
    const result = await createGatewayTool(host).execute(
      { action: "config.patch", patch: { agents: { defaults: { model: "local/other" } } } },
      ctx,
    );
    expect(result.isError, result.content).toBeFalsy();
    expect(result.content).toContain(`Wrote ${file}`);
    expect(result.content).toContain("Applied without a restart: agents.");
    expect(readJson(file).agents.defaults.model).toBe("local/other");
    expect(readJson(file).models.providers.local.apiKey).toBe(SECRET); // untouched keys stay
    expect(readJson(`${file}.bak`)).toEqual(ORIGINAL);
    expect(reloads).toBe(1);

    // path/value form; a second write shifts the backups along.
    const second = await createGatewayTool(host).execute(
      { action: "config.patch", set: [{ path: "tools.profile", value: "coding" }], reload: false },
      ctx,
    );
    expect(second.isError, second.content).toBeFalsy();
    expect(readJson(file).tools.profile).toBe("coding");
    expect(readJson(`${file}.bak`).agents.defaults.model).toBe("local/other");
    expect(readJson(`${file}.bak.1`)).toEqual(ORIGINAL);
    expect(reloads).toBe(1);
  });

  it("refuses a patch that makes the config invalid with the schema error, writing nothing", async () => {
    const ctx = makeCtx(box, { config: makeConfig(ORIGINAL) });
    const result = await createGatewayTool(host).execute({ action: "config.patch", patch: { gateway: { port: "eighty" } } }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Not written");
    expect(result.content).toContain(file);
    expect(result.content).toContain("gateway.port");
    expect(readJson(file)).toEqual(ORIGINAL);
    expect(existsSync(`${file}.bak`)).toBe(false);
    expect(reloads).toBe(0);
  });

  it("refuses the redaction mark as a value instead of writing *** over a secret", async () => {
    const ctx = makeCtx(box, { config: makeConfig(ORIGINAL) });
    const result = await createGatewayTool(host).execute(
      { action: "config.patch", patch: { models: { providers: { local: { apiKey: "***" } } } } },
      ctx,
    );
    expect(result.isError).toBe(true);
    expect(readJson(file)).toEqual(ORIGINAL);
  });

  it("says so when no gateway runs in this process", async () => {
    const result = await createGatewayTool({ configPath: file }).execute(
      { action: "reload" },
      makeCtx(box, { config: makeConfig(ORIGINAL) }),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain("openclaw gateway");
  });
});
