import { channelConfigSchema, defineChannelConfig, previewStreamingSchema, STANDARD_FLAT_KEYS } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createConfigRegistry, validateConfig } from "../src/config/index.js";

// A channel written by a third party from the SDK alone, with a retired key of its own.
const echoChannel = defineChannelConfig({
  id: "echo",
  label: "Echo",
  packageName: "openclaw-channel-echo",
  capabilities: {
    chatTypes: ["direct"],
    edit: true,
    delete: false,
    media: false,
    reactions: false,
    threads: false,
    typing: false,
    textLimit: 2000,
  },
  delivery: { previewModes: ["partial"], defaultMode: "partial", blockReplies: "explicit" },
  schema: channelConfigSchema({
    description: "A channel that echoes.",
    textChunkLimit: 2000,
    streaming: previewStreamingSchema({ modes: ["off", "partial"], defaultMode: "partial" }),
    shared: { token: z.string().optional().describe("API token.") },
  }),
  migrations: [
    {
      kind: "streaming-aliases",
      modes: ["off", "partial"],
      flatKeys: [...STANDARD_FLAT_KEYS, { key: "echoPreview", to: ["preview", "toolProgress"] }],
    },
  ],
});

describe("a channel supplied by a plugin", () => {
  it("is unknown without the plugin, validated and migrated with it", () => {
    const config = {
      channels: { echo: { token: "t", streamMode: "partial", echoPreview: false, accounts: { b: { blockStreaming: true } } } },
    };
    const bare = validateConfig(config, createConfigRegistry());
    expect(bare.ok).toBe(false);
    if (!bare.ok) expect(bare.problems[0]!.message).toContain('no channel named "echo"');

    const registry = createConfigRegistry([echoChannel]);
    const before = validateConfig(structuredClone(config), registry);
    expect(before.ok).toBe(false);
    if (!before.ok) {
      expect(before.problems.map((p) => p.path)).toEqual([
        "channels.echo.streamMode",
        "channels.echo.echoPreview",
        "channels.echo.accounts.b.blockStreaming",
      ]);
    }
    const migrated = structuredClone(config);
    const outcome = registry.migrate(migrated);
    expect(outcome.changes).toContain("channels.echo.echoPreview -> channels.echo.streaming.preview.toolProgress");
    expect(migrated).toEqual({
      channels: {
        echo: {
          token: "t",
          streaming: { mode: "partial", preview: { toolProgress: false } },
          accounts: { b: { streaming: { block: { enabled: true } } } },
        },
      },
    });
    expect(validateConfig(migrated, registry).ok).toBe(true);
  });

  it("rejects unknown keys inside the plugin's schema and enforces the access rules", () => {
    const registry = createConfigRegistry([echoChannel]);
    const res = validateConfig({ channels: { echo: { tokn: "x", streaming: { mode: "quiet" } } } }, registry);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.problems.find((p) => p.path === "channels.echo.tokn")?.fix).toContain('did you mean "token"');
      expect(res.problems.find((p) => p.path === "channels.echo.streaming.mode")?.fix).toContain('"off", "partial"');
    }
    const open = validateConfig({ channels: { echo: { dmPolicy: "open" } } }, registry);
    expect(open.ok).toBe(false);
    if (!open.ok) expect(open.problems[0]!.message).toContain('requires allowFrom to contain "*"');
    const acct = validateConfig({ channels: { echo: { allowFrom: ["*"], accounts: { a: { dmPolicy: "open" } } } } }, registry);
    expect(acct.ok).toBe(true); // the account inherits the root's allowFrom
  });
});
