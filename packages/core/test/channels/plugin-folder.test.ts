import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startFakeOpenAI, type LoopbackPlatform } from "@openclaw/testkit";
import { describe, expect, it } from "vitest";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import { LOOPBACK_PLUGIN_DIR } from "./harness.js";

describe("the loopback plugin folder", () => {
  it("is found through plugins.load.paths, runs its accounts and answers through the gateway", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "openclaw-loopback-folder-"));
    const stateDir = path.join(home, ".openclaw");
    mkdirSync(stateDir);
    const model = await startFakeOpenAI();
    const paths = { stateDir, configPath: path.join(stateDir, "openclaw.json") };
    const config = {
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-test", models: [{ id: "llama" }] } } },
      plugins: { load: { paths: [LOOPBACK_PLUGIN_DIR] } },
      channels: { loopback: { dmPolicy: "open", allowFrom: ["*"], accounts: { a: {}, b: { streaming: { mode: "off" } } } } },
    };
    writeFileSync(paths.configPath, JSON.stringify(config));
    const logs: string[] = [];
    const gateway = await startGateway({
      paths,
      port: 0,
      env: { HOME: home },
      log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    });
    try {
      // The module the loader imported: the same instance, so this is the platform behind the accounts.
      const { platform } = (await import(pathToFileURL(path.join(LOOPBACK_PLUGIN_DIR, "index.js")).href)) as { platform: LoopbackPlatform };
      await platform.waitFor(() => platform.connectedBots().length === 2, { what: "accounts a and b" });
      expect(logs).toContain("plugins: loaded channel loopback");
      await platform.userSays({ sender: "u1", text: "echo me", bot: "b" });
      await platform.waitFor(() => platform.chatView("u1").texts.includes("echo me"), { what: "the echoed reply" });
      expect(
        gateway
          .status()
          .find((c) => c.channel === "loopback")
          ?.accounts.map((a) => [a.accountId, a.state]),
      ).toEqual([
        ["a", "connected"],
        ["b", "connected"],
      ]);
    } finally {
      await gateway.stop();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
