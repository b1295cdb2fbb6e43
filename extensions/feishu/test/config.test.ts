import { readFileSync } from "node:fs";
import { AccountConfigError, mergeAccountConfig } from "@openclaw/plugin-sdk";
import { applyLegacyKeyRules, compileChannelMigrations } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin, { FEISHU_DOMAINS, type FeishuAccount, listFeishuAccounts } from "../src/index.js";
import { renderManifest } from "../src/manifest.js";

const packageDir = new URL("..", import.meta.url);

function resolve(channel: Record<string, unknown>, accountId = "default", env: NodeJS.ProcessEnv = {}): FeishuAccount {
  const parsed = configEntry.schema.parse(channel);
  return plugin.resolveAccount({ accountId, config: mergeAccountConfig(parsed, accountId) as never, channel: parsed, env });
}

function configError(fn: () => unknown): AccountConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AccountConfigError) return error;
    throw error;
  }
  throw new Error("expected an AccountConfigError");
}

describe("package shape", () => {
  it("declares the plugin block and ships an openclaw.plugin.json generated from the current schema", () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8"));
    expect(pkg.openclaw.plugin).toMatchObject({
      id: "feishu",
      kind: "channel",
      channels: ["feishu"],
      configEntry: "./dist/bundle/config.js",
    });
    expect(pkg.private).toBe(true);
    expect(pkg.devDependencies["@larksuiteoapi/node-sdk"]).toBe("1.74.0"); // bundled into dist/bundle
    expect(pkg.dependencies).toBeUndefined();
    // If this fails, run `pnpm --filter @openclaw/feishu build` to regenerate the manifest.
    expect(readFileSync(new URL("openclaw.plugin.json", packageDir), "utf8")).toBe(renderManifest());
    expect(plugin.config).toBe(configEntry);
  });
});

describe("accounts and credentials", () => {
  it("defaults: feishu domain, long connection, partial streaming, typing on", () => {
    expect(resolve({ appId: "cli_a1b2c3d4e5f60718", appSecret: "s" })).toMatchObject({
      appId: "cli_a1b2c3d4e5f60718",
      appSecret: "s",
      domain: FEISHU_DOMAINS.feishu,
      connectionMode: "websocket",
      webhook: undefined,
      textChunkLimit: 4000,
      streaming: { mode: "partial" },
      replyInThread: false,
      typingIndicator: true,
    });
    expect(resolve({ appId: "cli_x", appSecret: "s", domain: "lark" }).domain).toBe(FEISHU_DOMAINS.lark);
    expect(resolve({ appId: "cli_x", appSecret: "s", domain: "http://127.0.0.1:9/" }).domain).toBe("http://127.0.0.1:9");
  });

  it("reads FEISHU_APP_ID / FEISHU_APP_SECRET for the default account only", () => {
    const env = { FEISHU_APP_ID: "cli_env", FEISHU_APP_SECRET: "from-env" };
    expect(listFeishuAccounts({}, env)).toEqual(["default"]);
    expect(resolve({}, "default", env)).toMatchObject({ appId: "cli_env", appSecret: "from-env" });
    const named = configError(() => resolve({ accounts: { work: { appId: "cli_w" } } }, "work", env));
    expect(named.path).toBe("channels.feishu.accounts.work.appSecret");
    expect(named.message).toContain("named accounts do not read FEISHU_APP_SECRET");
  });

  it("refuses a plain-http domain off loopback, naming the key", () => {
    const error = configError(() => resolve({ appId: "cli_x", appSecret: "s", domain: "http://example.com" }));
    expect(error.path).toBe("channels.feishu.domain");
    expect(error.message).toContain("https");
  });

  it("webhook mode needs verificationToken and encryptKey (schema and runtime)", () => {
    const bad = configEntry.schema.safeParse({ appId: "cli_x", appSecret: "s", connectionMode: "webhook", encryptKey: "k" });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("verificationToken");
    const ok = resolve({ appId: "cli_x", appSecret: "s", connectionMode: "webhook", encryptKey: "k", verificationToken: "v" });
    expect(ok.webhook).toEqual({ path: "/feishu/events", verificationToken: "v", encryptKey: "k" });
  });
});

describe("retired streaming spellings", () => {
  it("are refused by the schema and rewritten by the doctor rules, at the root and in accounts", () => {
    const legacy = { appId: "cli_x", streaming: true, blockStreaming: true, chunkMode: "newline", accounts: { b: { streaming: false } } };
    expect(configEntry.schema.safeParse(legacy).success).toBe(false);
    const rules = compileChannelMigrations("feishu", configEntry.migrations);
    const config = { channels: { feishu: legacy as Record<string, unknown> } };
    const outcome = applyLegacyKeyRules(config, rules);
    expect(outcome.changes.length).toBeGreaterThan(0);
    const migrated = config.channels.feishu;
    expect(migrated).toEqual({
      appId: "cli_x",
      streaming: { mode: "partial", block: { enabled: true }, chunkMode: "newline" },
      accounts: { b: { streaming: { mode: "off" } } },
    });
    expect(configEntry.schema.safeParse(migrated).success).toBe(true);
  });

  it("drops the coalesce fields the reference accepted and never read (enabled, minDelayMs, maxDelayMs)", () => {
    const legacy = {
      appId: "cli_x",
      blockStreamingCoalesce: { enabled: true, minDelayMs: 500, maxDelayMs: 2000, minChars: 200 },
      accounts: { b: { streaming: { block: { coalesce: { maxDelayMs: 900, idleMs: 700 } } } } },
    };
    expect(configEntry.schema.safeParse(legacy).success).toBe(false);
    const rules = compileChannelMigrations("feishu", configEntry.migrations);
    const config = { channels: { feishu: legacy as Record<string, unknown> } };
    expect(rules.flatMap((r) => r.detect(config)).map((f) => f.path.join("."))).toContain(
      "channels.feishu.accounts.b.streaming.block.coalesce.maxDelayMs",
    );
    const outcome = applyLegacyKeyRules(config, rules);
    expect(outcome.changes).toContain("channels.feishu.streaming.block.coalesce.minDelayMs removed (it was never read)");
    expect(config.channels.feishu).toEqual({
      appId: "cli_x",
      streaming: { block: { coalesce: { minChars: 200 } } },
      accounts: { b: { streaming: { block: { coalesce: { idleMs: 700 } } } } },
    });
    expect(configEntry.schema.safeParse(config.channels.feishu).success).toBe(true);
  });
});
