import { readFileSync } from "node:fs";
import { AccountConfigError, mergeAccountConfig } from "@openclaw/plugin-sdk";
import { applyLegacyKeyRules, compileChannelMigrations, detectLegacyKeys } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import configEntry from "../src/config.js";
import plugin, { listMatrixAccounts, type MatrixAccount, roomStreamingConfig, roomStreamingMode } from "../src/index.js";
import { renderManifest } from "../src/manifest.js";

const packageDir = new URL("..", import.meta.url);

function resolve(channel: Record<string, unknown>, accountId = "default", env: NodeJS.ProcessEnv = {}): MatrixAccount {
  const parsed = configEntry.schema.parse(channel);
  return plugin.resolveAccount({ accountId, config: mergeAccountConfig(parsed, accountId) as never, channel: parsed, env });
}

function migrate(matrix: Record<string, unknown>) {
  const config = { channels: { matrix } };
  const rules = compileChannelMigrations("matrix", configEntry.migrations);
  const findings = detectLegacyKeys(config, rules);
  const outcome = applyLegacyKeyRules(config, rules);
  return { findings, outcome, matrix: config.channels.matrix };
}

describe("package shape", () => {
  it("is private, bundles matrix-js-sdk 36.2.0, and ships an openclaw.plugin.json generated from the current schema", () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8"));
    expect(pkg).toMatchObject({ name: "@openclaw/matrix", private: true });
    // Bundled into dist/bundle (scripts/bundle-extension.mjs); the Rust crypto's WebAssembly is loaded by path.
    expect(pkg.devDependencies["matrix-js-sdk"]).toBe("36.2.0");
    expect(pkg.devDependencies["fake-indexeddb"]).toMatch(/^6\./);
    expect(pkg.dependencies).toEqual({ "@matrix-org/matrix-sdk-crypto-wasm": "13.0.0" });
    expect(pkg.openclaw.plugin).toMatchObject({
      id: "matrix",
      kind: "channel",
      channels: ["matrix"],
      configEntry: "./dist/bundle/config.js",
    });
    // If this fails, run `pnpm --filter @openclaw/matrix build` to regenerate the manifest.
    expect(readFileSync(new URL("openclaw.plugin.json", packageDir), "utf8")).toBe(renderManifest());
    expect(plugin.config).toBe(configEntry);
  });
});

describe("accounts", () => {
  it("an access token account with every default", () => {
    expect(resolve({ homeserver: "https://matrix.example.org/", accessToken: "syt_x" })).toEqual({
      accountId: "default",
      homeserver: "https://matrix.example.org",
      auth: { kind: "token", accessToken: "syt_x" },
      deviceName: "OpenClaw",
      encryption: false,
      autoJoin: "off",
      autoJoinAllowlist: [],
      replyToMode: "off",
      threadReplies: "inbound",
      mentionPatterns: [],
      allowBots: false,
      botUserIds: [],
      typing: true,
      readReceipts: true,
      textChunkLimit: 4000,
      mediaMaxBytes: 20 * 1024 * 1024,
      streaming: { mode: "off", rooms: {}, config: {} },
      roomAliases: [],
    });
  });

  it("the default account reads MATRIX_* from the environment; named accounts do not", () => {
    const env = { MATRIX_HOMESERVER: "http://127.0.0.1:8008", MATRIX_USER_ID: "@bot:localhost", MATRIX_PASSWORD: "pw" };
    expect(resolve({}, "default", env).auth).toEqual({ kind: "password", userId: "@bot:localhost", password: "pw" });
    expect(listMatrixAccounts({}, env)).toEqual(["default"]);
    expect(() => resolve({ accounts: { work: {} } }, "work", env)).toThrow(/channels\.matrix\.accounts\.work\.homeserver is not set/);
  });

  it("names the missing key: a password without userId, no login at all, a bad mention pattern", () => {
    expect(() => resolve({ homeserver: "https://m.org", password: "pw" })).toThrow(/channels\.matrix\.userId is not set/);
    try {
      resolve({ homeserver: "https://m.org" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AccountConfigError);
      expect((error as AccountConfigError).path).toBe("channels.matrix.accessToken");
    }
    expect(() => resolve({ homeserver: "https://m.org", accessToken: "t", mentionPatterns: ["(unclosed"] })).toThrow(
      /channels\.matrix\.mentionPatterns\[0\]/,
    );
  });

  it("accounts inherit root keys and merge per-room streaming overrides", () => {
    const account = resolve(
      {
        homeserver: "https://m.org",
        streaming: { mode: "partial", rooms: { "!a:m.org": { mode: "quiet" } } },
        accounts: { work: { accessToken: "t2", streaming: { rooms: { "!b:m.org": { mode: "off" } } } } },
      },
      "work",
    );
    expect(account.streaming.mode).toBe("partial");
    expect(account.roomAliases).toEqual([]);
    expect(account.streaming.rooms).toEqual({ "!a:m.org": { mode: "quiet" }, "!b:m.org": { mode: "off" } });
  });

  it("a room's streaming override turns previews on where the account's mode is off, and off where it is on", () => {
    const account = resolve({
      homeserver: "https://m.org",
      accessToken: "t",
      streaming: {
        mode: "off",
        progress: { maxLines: 4, label: "Working" },
        rooms: {
          "!live:m.org": { mode: "partial" },
          "#ops:m.org": { mode: "progress", progress: { maxLines: 2 } },
        },
      },
      accounts: { quiet: { accessToken: "t2", streaming: { mode: "quiet", rooms: { "!calm:m.org": { mode: "off" } } } } },
    });
    // What core's delivery planner gets for each room (AccountSession.streamingFor).
    expect(roomStreamingConfig(account.streaming, ["!live:m.org"])).toEqual({
      mode: "partial",
      progress: { maxLines: 4, label: "Working" },
    });
    expect(roomStreamingConfig(account.streaming, ["!other:m.org"])).toBeUndefined();
    // A room named by its alias: the id first, then the aliases it resolved from.
    expect(roomStreamingConfig(account.streaming, ["!opsroom:m.org", "#ops:m.org"])).toEqual({
      mode: "progress",
      progress: { maxLines: 2, label: "Working" },
    });
    expect(roomStreamingMode(account.streaming, ["!other:m.org"])).toBe("off");
    // Alias keys the session resolves to room ids: from groups and streaming.rooms, once each.
    expect(
      resolve({
        homeserver: "https://m.org",
        accessToken: "t",
        groups: { "#ops:m.org": { requireMention: false }, "!id:m.org": {}, "*": {} },
        streaming: { rooms: { "#ops:m.org": { mode: "partial" }, "#talk:m.org": { mode: "quiet" } } },
      }).roomAliases,
    ).toEqual(["#ops:m.org", "#talk:m.org"]);

    const quiet = resolve(
      {
        homeserver: "https://m.org",
        streaming: { mode: "off", rooms: { "!live:m.org": { mode: "partial" } } },
        accounts: { quiet: { accessToken: "t2", streaming: { mode: "quiet", rooms: { "!calm:m.org": { mode: "off" } } } } },
      },
      "quiet",
    );
    expect(roomStreamingMode(quiet.streaming, ["!other:m.org"])).toBe("quiet");
    expect(roomStreamingConfig(quiet.streaming, ["!calm:m.org"])).toEqual({ mode: "off" });
    expect(roomStreamingConfig(quiet.streaming, ["!live:m.org"])).toEqual({ mode: "partial" });
    expect(configEntry.schema.safeParse({ streaming: { rooms: { "!a:m.org": { mode: "block" } } } }).success).toBe(false);
  });
});

describe("schema and delivery policy", () => {
  it("streaming: off by default, partial|quiet|progress previews, block replies only when explicit", () => {
    expect(configEntry.delivery).toEqual({ previewModes: ["partial", "quiet", "progress"], defaultMode: "off", blockReplies: "explicit" });
    for (const mode of ["off", "partial", "quiet", "progress"])
      expect(configEntry.schema.safeParse({ streaming: { mode } }).success).toBe(true);
    expect(configEntry.schema.safeParse({ streaming: { mode: "block" } }).success).toBe(false);
    expect(configEntry.schema.safeParse({ streaming: "partial" }).success).toBe(false);
    expect(configEntry.schema.safeParse({ blockStreaming: true }).success).toBe(false);
  });

  it("autoJoin allowlist entries must be room ids, aliases, user ids or *", () => {
    expect(
      configEntry.schema.safeParse({ autoJoin: "allowlist", autoJoinAllowlist: ["!r:m.org", "#a:m.org", "@u:m.org", "*"] }).success,
    ).toBe(true);
    expect(configEntry.schema.safeParse({ autoJoinAllowlist: ["general"] }).success).toBe(false);
  });

  it("sender ids are full user ids; a room or a bare name is reported with a fix", () => {
    expect(configEntry.ids?.checkSender?.("@alice:example.org")).toBeUndefined();
    expect(configEntry.ids?.checkSender?.("alice")?.fix).toMatch(/@alice:example\.org/);
    expect(configEntry.ids?.checkSender?.("!room:example.org")?.message).toMatch(/room/);
    expect(configEntry.ids?.sender?.("@Alice:Example.org")).toBe("@alice:example.org");
  });
});

describe("doctor rules", () => {
  it("scalar streaming and streamMode become streaming.mode, keeping quiet", () => {
    expect(migrate({ streaming: "quiet" }).matrix).toEqual({ streaming: { mode: "quiet" } });
    expect(migrate({ streamMode: "quiet" }).matrix).toEqual({ streaming: { mode: "quiet" } });
    expect(migrate({ streaming: true }).matrix).toEqual({ streaming: { mode: "partial" } });
    expect(migrate({ streaming: false }).matrix).toEqual({ streaming: { mode: "off" } });
  });

  it("flat block keys move under streaming at the root and in accounts; a nested value wins", () => {
    const { matrix, findings } = migrate({
      chunkMode: "newline",
      blockStreaming: true,
      blockStreamingCoalesce: { minChars: 300 },
      accounts: { work: { blockStreaming: false, streaming: { block: { enabled: true } } } },
    });
    expect(findings.length).toBeGreaterThanOrEqual(4);
    expect(matrix).toEqual({
      streaming: { chunkMode: "newline", block: { enabled: true, coalesce: { minChars: 300 } } },
      accounts: { work: { streaming: { block: { enabled: true } } } },
    });
  });

  it("the reference's dm block and rooms map move to dmPolicy, allowFrom and groups", () => {
    const { matrix } = migrate({ dm: { policy: "allowlist", allowFrom: ["@a:m.org"] }, rooms: { "!r:m.org": { requireMention: false } } });
    expect(matrix).toEqual({ dmPolicy: "allowlist", allowFrom: ["@a:m.org"], groups: { "!r:m.org": { requireMention: false } } });
    expect(configEntry.schema.safeParse(matrix).success).toBe(true);
  });
});
