import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountConfigError, mergeAccountConfig } from "@openclaw/plugin-sdk";
import { applyLegacyKeyRules, compileChannelMigrations, detectLegacyKeys } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin, { chatCapabilities, listQQBotAccounts, QQBOT_ENDPOINTS, type QQBotAccount } from "../src/index.js";
import { renderManifest } from "../src/manifest.js";

const packageDir = new URL("..", import.meta.url);

/** Resolves an account as core does: validate with the schema, merge, resolve. */
function resolve(channel: Record<string, unknown>, accountId = "default", env: NodeJS.ProcessEnv = {}): QQBotAccount {
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
      id: "qqbot",
      kind: "channel",
      channels: ["qqbot"],
      configEntry: "./dist/bundle/config.js",
    });
    // If this fails, run `pnpm --filter @openclaw/qqbot build` to regenerate the manifest.
    expect(readFileSync(new URL("openclaw.plugin.json", packageDir), "utf8")).toBe(renderManifest());
    expect(plugin.config).toBe(configEntry);
  });
});

describe("accounts and credentials", () => {
  it("uses the official endpoints by default, the sandbox with sandbox: true, and apiBase/tokenUrl when set", () => {
    const account = resolve({ appId: "102030", clientSecret: "s3cret" });
    expect(account).toMatchObject({
      appId: "102030",
      clientSecret: "s3cret",
      secretSource: "clientSecret",
      apiBase: QQBOT_ENDPOINTS.apiBase,
      tokenUrl: QQBOT_ENDPOINTS.tokenUrl,
      markdownSupport: false,
      textChunkLimit: 5000,
      streaming: { mode: "partial", nativeTransport: false },
    });
    expect(resolve({ appId: 102030, clientSecret: "s", sandbox: true }).apiBase).toBe(QQBOT_ENDPOINTS.sandboxApiBase);
    const proxied = resolve({ appId: "1", clientSecret: "s", apiBase: "http://127.0.0.1:9/", tokenUrl: "http://127.0.0.1:9/t" });
    expect(proxied).toMatchObject({ apiBase: "http://127.0.0.1:9", tokenUrl: "http://127.0.0.1:9/t" });
  });

  it("reads QQBOT_APP_ID / QQBOT_CLIENT_SECRET for the default account only", () => {
    const env = { QQBOT_APP_ID: "777", QQBOT_CLIENT_SECRET: "from-env" };
    expect(listQQBotAccounts({}, env)).toEqual(["default"]);
    expect(resolve({}, "default", env)).toMatchObject({ appId: "777", clientSecret: "from-env", secretSource: "env" });
    const channel = { accounts: { work: { appId: "888" } } };
    expect(listQQBotAccounts(channel, {})).toEqual(["work"]);
    const error = configError(() => resolve(channel, "work", env));
    expect(error.path).toBe("channels.qqbot.accounts.work.clientSecret");
    expect(error.message).toMatch(/named accounts do not read QQBOT_CLIENT_SECRET/);
  });

  it("reads clientSecretFile, and names the key and the fix when it is missing", () => {
    const file = join(mkdtempSync(join(tmpdir(), "qq-secret-")), "secret");
    writeFileSync(file, "  file-secret\n");
    expect(resolve({ appId: "1", clientSecretFile: file })).toMatchObject({
      clientSecret: "file-secret",
      secretSource: "clientSecretFile",
    });
    const missing = configError(() => resolve({ appId: "1", clientSecretFile: `${file}.nope` }));
    expect(missing.path).toBe("channels.qqbot.clientSecretFile");
    expect(missing.message).toMatch(/does not exist/);
    const noAppId = configError(() => resolve({ clientSecret: "s" }));
    expect(noAppId.path).toBe("channels.qqbot.appId");
    expect(noAppId.message).toMatch(/QQBOT_APP_ID/);
  });

  it("accepts the access keys and per-group requireMention; rejects unknown keys", () => {
    const parsed = configEntry.schema.safeParse({
      appId: "1",
      dmPolicy: "allowlist",
      allowFrom: ["e4a0c3f1e4a0c3f1e4a0c3f1e4a0c3f1"],
      groupPolicy: "allowlist",
      groups: { C0FFEE00C0FFEE00C0FFEE00C0FFEE00: { requireMention: false } },
      markdownSupport: true,
      streaming: { mode: "off", nativeTransport: true },
    });
    expect(parsed.success).toBe(true);
    expect(configEntry.schema.safeParse({ streaming: { mode: "block" } }).success).toBe(false);
    expect(configEntry.schema.safeParse({ botToken: "x" }).success).toBe(false);
  });

  it("allowFrom takes openids (any case, compared upper-case) and refuses what cannot be one", () => {
    const ids = configEntry.ids!;
    expect(ids.sender!("e4a0c3f1e4a0c3f1e4a0c3f1e4a0c3f1")).toBe("E4A0C3F1E4A0C3F1E4A0C3F1E4A0C3F1");
    expect(ids.checkSender!("e4a0c3f1e4a0c3f1e4a0c3f1e4a0c3f1")).toBeUndefined();
    expect(ids.checkSender!("123456")).toBeUndefined();
    expect(ids.checkSender!("@alice")?.message).toMatch(/not a QQ user openid/);
  });
});

describe("doctor rules for the retired streaming spellings", () => {
  const rules = compileChannelMigrations("qqbot", configEntry.migrations);

  it("streaming: true -> partial with nativeTransport; false -> off; c2cStreamApi -> nativeTransport (accounts too)", () => {
    const config = {
      channels: {
        qqbot: {
          appId: "1",
          streaming: true,
          accounts: { a: { streaming: false }, b: { streaming: { mode: "partial", c2cStreamApi: true } } },
        },
      },
    };
    expect(detectLegacyKeys(config, rules).length).toBeGreaterThanOrEqual(3);
    const outcome = applyLegacyKeyRules(config, rules);
    expect(outcome.problems).toEqual([]);
    expect(config.channels.qqbot.streaming).toEqual({ mode: "partial", nativeTransport: true });
    expect(config.channels.qqbot.accounts.a.streaming).toEqual({ mode: "off" });
    expect(config.channels.qqbot.accounts.b.streaming).toEqual({ mode: "partial", nativeTransport: true });
    // The migrated config validates against the schema.
    expect(configEntry.schema.safeParse(config.channels.qqbot).success).toBe(true);
  });
});

describe('dmPolicy "open" keeps the reference\'s meaning (allowlist when allowFrom has entries, else open)', () => {
  const rules = compileChannelMigrations("qqbot", configEntry.migrations);
  const OPENID = "E4A0C3F1E4A0C3F1E4A0C3F1E4A0C3F1";

  it('is refused as written, pointing at doctor; doctor writes "allowlist" with entries and allowFrom ["*"] without', () => {
    const config = {
      channels: {
        qqbot: {
          appId: "1",
          dmPolicy: "open",
          allowFrom: [OPENID],
          accounts: {
            empty: { dmPolicy: "open", allowFrom: [] },
            inherits: { allowFrom: [OPENID.toLowerCase()] },
            open: { dmPolicy: "open", allowFrom: ["*"] },
          },
        },
      },
    } as const;
    const copy = structuredClone(config) as { channels: { qqbot: Record<string, any> } };
    // Before: the schema refuses it, and doctor's finding sits on that very key.
    expect(configEntry.schema.safeParse(copy.channels.qqbot).success).toBe(false);
    const findings = detectLegacyKeys(copy, rules).filter((f) => f.path.at(-1) === "dmPolicy");
    expect(findings.map((f) => f.path.join("."))).toEqual([
      "channels.qqbot.dmPolicy",
      "channels.qqbot.accounts.empty.dmPolicy",
      "channels.qqbot.accounts.inherits.dmPolicy",
    ]);
    expect(findings[0]!.message).toContain("openclaw doctor --fix");

    const outcome = applyLegacyKeyRules(copy, rules);
    expect(outcome.problems).toEqual([]);
    const qq = copy.channels.qqbot;
    expect(qq.dmPolicy).toBe("allowlist");
    expect(qq.allowFrom).toEqual([OPENID]);
    expect(qq.accounts.empty).toEqual({ dmPolicy: "open", allowFrom: ["*"] });
    expect(qq.accounts.inherits).toEqual({ dmPolicy: "allowlist", allowFrom: [OPENID.toLowerCase()] });
    expect(qq.accounts.open).toEqual({ dmPolicy: "open", allowFrom: ["*"] });
    expect(configEntry.schema.safeParse(qq).success).toBe(true);
    // A second run changes nothing.
    expect(applyLegacyKeyRules(copy, rules).changes).toEqual([]);
  });
});

describe("capabilities", () => {
  it("C2C chats stream and show typing; groups neither, with a 5-minute reply window; 5 passive replies each", () => {
    expect(configEntry.capabilities).toMatchObject({ nativeStream: "replace", typing: true, edit: false, textLimit: 5000 });
    expect(configEntry.capabilities.replyQuota).toEqual({ perInbound: 5, windowMs: 3_600_000 });
    expect(chatCapabilities("direct", "E4A0C3F1E4A0C3F1E4A0C3F1E4A0C3F1")).toEqual({});
    expect(chatCapabilities("group", "C0FFEE")).toMatchObject({
      nativeStream: undefined,
      typing: false,
      replyQuota: { perInbound: 5, windowMs: 300_000 },
    });
    expect(configEntry.delivery).toEqual({
      previewModes: ["partial"],
      defaultMode: "partial",
      blockReplies: "unless-off",
      nativeStream: { mode: "partial", flag: "nativeTransport", overBlocks: true },
    });
  });
});
