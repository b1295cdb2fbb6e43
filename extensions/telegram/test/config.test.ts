import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountConfigError } from "@openclaw/plugin-sdk";
import { applyLegacyKeyRules, compileChannelMigrations, detectLegacyKeys } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin, { listTelegramAccounts, TELEGRAM_CAPABILITIES } from "../src/index.js";
import { resolveFromConfig } from "./helpers.js";
import { renderManifest } from "../src/manifest.js";

const packageDir = new URL("..", import.meta.url);

function tempFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "tg-token-")), "token");
  writeFileSync(file, content);
  return file;
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
    expect(pkg.openclaw.plugin).toEqual({
      id: "telegram",
      kind: "channel",
      channels: ["telegram"],
      entry: "./dist/bundle/index.js",
      configEntry: "./dist/bundle/config.js",
      sdk: "^0.1.0",
    });
    expect(pkg.peerDependencies).toEqual({ "@openclaw/plugin-sdk": "^0.1.0", zod: "^4.1.0" });
    const manifest = readFileSync(new URL("openclaw.plugin.json", packageDir), "utf8");
    // If this fails, run `pnpm --filter @openclaw/telegram build` to regenerate the manifest.
    expect(manifest).toBe(renderManifest());
    expect(JSON.parse(manifest).configSchema.properties.botToken.type).toBe("string");
  });

  it("default-exports the plugin and the light config definition", () => {
    expect(plugin.id).toBe("telegram");
    expect(plugin.config).toBe(configEntry);
    expect(plugin.config.capabilities).toEqual(TELEGRAM_CAPABILITIES);
    expect(configEntry).toMatchObject({
      id: "telegram",
      packageName: "@openclaw/telegram",
      delivery: { previewModes: ["partial", "block", "progress"], defaultMode: "partial", blockReplies: "inherit" },
    });
  });
});

describe("accounts and tokens", () => {
  it("lists the root as default when it has credentials or TELEGRAM_BOT_TOKEN is set", () => {
    expect(listTelegramAccounts({ botToken: "1:a" }, {})).toEqual(["default"]);
    expect(listTelegramAccounts({ tokenFile: "/x" }, {})).toEqual(["default"]);
    expect(listTelegramAccounts({ accounts: { work: { botToken: "2:b" } } }, {})).toEqual(["work"]);
    expect(listTelegramAccounts({ accounts: { work: { botToken: "2:b" } } }, { TELEGRAM_BOT_TOKEN: "3:c" })).toEqual(["default", "work"]);
    expect(listTelegramAccounts({}, {})).toEqual(["default"]);
  });

  it("takes the token from botToken, then tokenFile (trimmed), then the environment (default account only)", () => {
    expect(resolveFromConfig({ botToken: "1:a", tokenFile: tempFile("2:b") }, "default", { TELEGRAM_BOT_TOKEN: "3:c" })).toMatchObject({
      token: "1:a",
      tokenSource: "botToken",
    });
    expect(resolveFromConfig({ tokenFile: tempFile("  2:b\n") }, "default", { TELEGRAM_BOT_TOKEN: "3:c" })).toMatchObject({
      token: "2:b",
      tokenSource: "tokenFile",
    });
    expect(resolveFromConfig({}, "default", { TELEGRAM_BOT_TOKEN: "3:c" })).toMatchObject({ token: "3:c", tokenSource: "env" });
    const work = resolveFromConfig(
      { botToken: "1:a", linkPreview: false, accounts: { work: { tokenFile: tempFile("4:d"), replyToMode: "first" } } },
      "work",
      {},
    );
    expect(work).toMatchObject({
      token: "4:d",
      tokenSource: "tokenFile",
      linkPreview: false,
      replyToMode: "first",
      textChunkLimit: 4000,
      webhook: undefined,
    });
  });

  it("explains a missing token with the config path and the fix", () => {
    const root = configError(() => resolveFromConfig({}, "default", {}));
    expect(root.path).toBe("channels.telegram.botToken");
    expect(root.message).toMatch(
      /channels\.telegram\.botToken, channels\.telegram\.tokenFile, or the TELEGRAM_BOT_TOKEN environment variable/,
    );
    expect(root.message).toMatch(/@BotFather/);
    // A named account never borrows the root's token nor the environment's.
    const named = configError(() => resolveFromConfig({ botToken: "1:a", accounts: { work: {} } }, "work", { TELEGRAM_BOT_TOKEN: "3:c" }));
    expect(named.path).toBe("channels.telegram.accounts.work.botToken");
    expect(named.message).toMatch(/accounts\.work\.tokenFile.*do not read TELEGRAM_BOT_TOKEN/);
    const missingFile = configError(() => resolveFromConfig({ tokenFile: "/nonexistent/token" }, "default", {}));
    expect(missingFile.message).toMatch(/channels\.telegram\.tokenFile: the file \/nonexistent\/token does not exist/);
    const empty = configError(() => resolveFromConfig({ tokenFile: tempFile("\n") }, "default", {}));
    expect(empty.message).toMatch(/is empty/);
  });

  it("requires a valid webhookSecret with webhookUrl and fills webhook defaults", () => {
    const noSecret = configError(() => resolveFromConfig({ botToken: "1:a", webhookUrl: "https://bot.example.com/tg" }, "default", {}));
    expect(noSecret.path).toBe("channels.telegram.webhookSecret");
    expect(noSecret.message).toMatch(/remove webhookUrl to use long polling/);
    const badSecret = configError(() =>
      resolveFromConfig({ botToken: "1:a", webhookUrl: "https://x.y", webhookSecret: "has space" }, "default", {}),
    );
    expect(badSecret.message).toMatch(/A-Z, a-z, 0-9, _ and -/);
    const ok = resolveFromConfig({ botToken: "1:a", webhookUrl: "https://x.y/tg", webhookSecret: "abc" }, "default", {});
    expect(ok.webhook).toEqual({ url: "https://x.y/tg", secret: "abc", host: "127.0.0.1", port: 8787, path: "/telegram-webhook" });
  });
});

describe("schema and doctor", () => {
  const schema = configEntry.schema;

  it("accepts the nested streaming shape, groups with topics, and the webhook keys", () => {
    const result = schema.safeParse({
      botToken: "1:a",
      apiRoot: "http://127.0.0.1:9000",
      dmPolicy: "allowlist",
      allowFrom: [123, "tg:456"],
      groups: { "-100123": { requireMention: false, topics: { "7": { agentId: "ops" } } } },
      replyToMode: "first",
      textChunkLimit: 3000,
      linkPreview: false,
      webhookUrl: "https://bot.example.com/tg",
      webhookSecret: "s3cret",
      webhookPort: 8443,
      webhookPath: "/tg",
      streaming: { mode: "block", chunkMode: "newline", preview: { chunk: { minChars: 100, maxChars: 600 } }, block: { enabled: false } },
      accounts: { work: { botToken: "2:b", streaming: { mode: "progress" } } },
    });
    expect(result.success).toBe(true);
  });

  it("rejects every retired flat key", () => {
    for (const key of ["streamMode", "chunkMode", "blockStreaming", "blockStreamingCoalesce", "draftChunk"]) {
      expect(
        schema.safeParse({
          botToken: "1:a",
          [key]: key === "blockStreaming" ? true : key === "streamMode" || key === "chunkMode" ? "partial" : {},
        }).success,
        key,
      ).toBe(false);
    }
    expect(schema.safeParse({ botToken: "1:a", streaming: "partial" }).success).toBe(false);
    expect(schema.safeParse({ botToken: "1:a", apiRoot: "http://x", accounts: { a: { apiRoot: "http://y" } } }).success).toBe(false);
  });

  it("migrates every retired key, at the root and in accounts, to a config the schema accepts", () => {
    const config = {
      channels: {
        telegram: {
          botToken: "1:a",
          streamMode: "block",
          chunkMode: "newline",
          blockStreaming: false,
          blockStreamingCoalesce: { minChars: 300, idleMs: 500 },
          draftChunk: { minChars: 100, maxChars: 500, breakPreference: "sentence" },
          accounts: { work: { botToken: "2:b", streaming: false }, play: { botToken: "3:c", streaming: "progress" } },
        },
      },
    };
    const rules = compileChannelMigrations("telegram", configEntry.migrations);
    const found = detectLegacyKeys(config, rules);
    expect(found.map((f) => f.path.join("."))).toEqual(
      expect.arrayContaining([
        "channels.telegram.streamMode",
        "channels.telegram.chunkMode",
        "channels.telegram.blockStreaming",
        "channels.telegram.blockStreamingCoalesce",
        "channels.telegram.draftChunk",
        "channels.telegram.accounts.work.streaming",
        "channels.telegram.accounts.play.streaming",
      ]),
    );
    expect(found[0]!.message).toMatch(/openclaw doctor --fix/);
    const outcome = applyLegacyKeyRules(config, rules);
    expect(outcome.problems).toEqual([]);
    const telegram = config.channels.telegram as Record<string, any>;
    expect(telegram.streaming).toMatchObject({
      mode: "block",
      chunkMode: "newline",
      block: { enabled: false, coalesce: { minChars: 300, idleMs: 500 } },
      preview: { chunk: { minChars: 100, maxChars: 500, breakPreference: "sentence" } },
    });
    expect(telegram.accounts.work.streaming.mode).toBe("off");
    expect(telegram.accounts.play.streaming.mode).toBe("progress");
    for (const key of ["streamMode", "chunkMode", "blockStreaming", "blockStreamingCoalesce", "draftChunk"])
      expect(telegram).not.toHaveProperty(key);
    expect(schema.safeParse(telegram).success).toBe(true);
    expect(detectLegacyKeys(config, rules)).toEqual([]);
    expect(applyLegacyKeyRules(config, rules).changes).toEqual([]);
  });
});
