import { channelConfigSchema, defineChannelConfig, deliveryOnlyStreamingSchema, previewStreamingSchema } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import { createConfigRegistry } from "./registry.js";
import { streamingWarnings } from "./streaming-warnings.js";

const caps = {
  chatTypes: ["direct"] as const,
  delete: false,
  media: false,
  reactions: false,
  threads: false,
  typing: false,
  textLimit: 1000,
};

// A channel whose schema accepts preview modes its platform cannot do (no edits).
const noEdits = defineChannelConfig({
  id: "noedit",
  label: "No Edit",
  packageName: "openclaw-noedit",
  schema: channelConfigSchema({
    description: "test",
    textChunkLimit: 1000,
    streaming: previewStreamingSchema({ modes: ["off", "partial"], defaultMode: "partial" }),
    shared: {},
  }),
  migrations: [],
  capabilities: { ...caps, edit: false },
  delivery: { previewModes: ["partial"], defaultMode: "partial", blockReplies: "explicit" },
});

const plain = defineChannelConfig({
  id: "plain",
  label: "Plain",
  packageName: "openclaw-plain",
  schema: channelConfigSchema({ description: "test", textChunkLimit: 1000, streaming: deliveryOnlyStreamingSchema(), shared: {} }),
  migrations: [],
  capabilities: { ...caps, edit: false },
  delivery: { previewModes: [], defaultMode: null, blockReplies: "explicit" },
});

describe("streamingWarnings (config validate, gateway start)", () => {
  it("names the config path of a preview mode the channel cannot do, at the root and in accounts", () => {
    const registry = createConfigRegistry([noEdits, plain]);
    const config = {
      channels: {
        noedit: { streaming: { mode: "partial" }, accounts: { a: { streaming: { mode: "off" } }, b: { streaming: { mode: "partial" } } } },
        plain: { streaming: { block: { enabled: true } } },
      },
    };
    const warnings = streamingWarnings(config, registry);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^channels\.noedit\.streaming\.mode is "partial", but noedit cannot edit messages/);
    expect(warnings[1]).toMatch(/^channels\.noedit\.accounts\.b\.streaming\.mode is "partial"/);
    expect(streamingWarnings({ channels: { noedit: { streaming: { mode: "off" } } } }, registry)).toEqual([]);
  });
});
