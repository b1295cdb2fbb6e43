import { readFileSync } from "node:fs";
import { mergeAccountConfig } from "@openclaw/plugin-sdk";
import { applyLegacyKeyRules, compileChannelMigrations, detectLegacyKeys } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin, { listWhatsAppAccounts, toE164, type WhatsAppAccount } from "../src/index.js";
import { renderManifest } from "../src/manifest.js";

const packageDir = new URL("..", import.meta.url);

function resolve(channel: Record<string, unknown>, accountId = "default"): WhatsAppAccount {
  const parsed = configEntry.schema.parse(channel);
  return plugin.resolveAccount({ accountId, config: mergeAccountConfig(parsed, accountId) as never, channel: parsed, env: {} });
}

describe("package shape", () => {
  it("declares the plugin block and ships an openclaw.plugin.json generated from the current schema", () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8"));
    expect(pkg.openclaw.plugin).toMatchObject({
      id: "whatsapp",
      kind: "channel",
      channels: ["whatsapp"],
      configEntry: "./dist/bundle/config.js",
    });
    // If this fails, run `pnpm --filter @openclaw/whatsapp build` to regenerate the manifest.
    expect(readFileSync(new URL("openclaw.plugin.json", packageDir), "utf8")).toBe(renderManifest());
    expect(plugin.config).toBe(configEntry);
  });
});

describe("accounts", () => {
  it("defaults: read receipts on, no self-chat, 4000-character chunks by length, 50 MB files", () => {
    expect(resolve({})).toEqual({
      accountId: "default",
      selfChatMode: false,
      sendReadReceipts: true,
      textChunkLimit: 4000,
      chunkMode: "length",
      mediaMaxBytes: 50 * 1024 * 1024,
    });
    const work = resolve(
      { sendReadReceipts: false, accounts: { work: { selfChatMode: true, streaming: { chunkMode: "newline" } } } },
      "work",
    );
    expect(work).toMatchObject({ accountId: "work", selfChatMode: true, sendReadReceipts: false, chunkMode: "newline" });
    expect(listWhatsAppAccounts({}, {})).toEqual(["default"]);
    expect(listWhatsAppAccounts({ accounts: { work: {}, home: {} } }, {})).toEqual(["work", "home"]);
  });

  it("has no preview mode: streaming.mode is rejected, block replies need an explicit enabled: true", () => {
    expect(configEntry.schema.safeParse({ streaming: { mode: "partial" } }).success).toBe(false);
    expect(configEntry.schema.safeParse({ streaming: { block: { enabled: true, coalesce: { minChars: 200 } } } }).success).toBe(true);
    expect(configEntry.delivery).toEqual({ previewModes: [], defaultMode: null, blockReplies: "explicit" });
    expect(configEntry.capabilities.edit).toBe(false);
  });
});

describe("ids", () => {
  it("normalizes numbers and JIDs to E.164; groups keep their JID", () => {
    expect(toE164("15551234567@s.whatsapp.net")).toBe("+15551234567");
    expect(toE164("15551234567:12@s.whatsapp.net")).toBe("+15551234567");
    expect(toE164("+1 (555) 123-4567")).toBe("+15551234567");
    expect(configEntry.ids?.chat?.("120363041234567890@G.US")).toBe("120363041234567890@g.us");
    expect(configEntry.ids?.chatKindOf?.("120363041234567890@g.us")).toBe("group");
    expect(configEntry.ids?.chatKindOf?.("+15551234567")).toBe("direct");
  });

  it("checkSender refuses names, numbers without a country code and group JIDs, with the fix", () => {
    const check = configEntry.ids!.checkSender!;
    expect(check("+15551234567")).toBeUndefined();
    expect(check("15551234567@s.whatsapp.net")).toBeUndefined();
    expect(check("alice")).toMatchObject({
      message: expect.stringContaining("not a phone number"),
      fix: expect.stringContaining("+15551234567"),
    });
    expect(check("5551234567")).toMatchObject({ message: expect.stringContaining("no country code") });
    expect(check("120363041234567890@g.us")).toMatchObject({ message: expect.stringContaining("group JID") });
  });
});

describe("doctor rules", () => {
  it("move the flat chunkMode, blockStreaming and blockStreamingCoalesce under streaming (root and accounts); a nested value wins", () => {
    const rules = compileChannelMigrations("whatsapp", configEntry.migrations);
    const config = {
      channels: {
        whatsapp: {
          chunkMode: "newline",
          blockStreaming: true,
          blockStreamingCoalesce: { minChars: 300 },
          accounts: { work: { blockStreaming: false, streaming: { block: { enabled: true } } } },
        },
      },
    };
    expect(detectLegacyKeys(config, rules).map((f) => f.path.join("."))).toEqual(
      expect.arrayContaining([
        "channels.whatsapp.chunkMode",
        "channels.whatsapp.blockStreaming",
        "channels.whatsapp.accounts.work.blockStreaming",
      ]),
    );
    const outcome = applyLegacyKeyRules(config, rules);
    expect(outcome.problems).toEqual([]);
    expect(config.channels.whatsapp).toEqual({
      streaming: { chunkMode: "newline", block: { enabled: true, coalesce: { minChars: 300 } } },
      accounts: { work: { streaming: { block: { enabled: true } } } },
    });
    expect(configEntry.schema.safeParse(config.channels.whatsapp).success).toBe(true);
    expect(applyLegacyKeyRules(config, rules).changes).toEqual([]);
  });
});
