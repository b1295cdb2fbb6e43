import { describe, expect, it } from "vitest";
import { resolveBlockStreamingSettings } from "./index.js";

describe("resolveBlockStreamingSettings", () => {
  it("applies the documented defaults", () => {
    expect(resolveBlockStreamingSettings({}, { agentId: "main" })).toEqual({
      minChars: 800,
      maxChars: 1200,
      breakPreference: "paragraph",
      chunkMode: "length",
      textChunkLimit: 4000,
      coalesce: { minChars: 800, maxChars: 1200, idleMs: 1000, joiner: "\n\n" },
      break: "text_end",
    });
    expect(resolveBlockStreamingSettings(undefined).maxChars).toBe(1200);
  });

  it("reads agents.defaults and clamps to the channel's textChunkLimit", () => {
    const config = {
      agents: {
        defaults: {
          blockStreamingBreak: "message_end",
          blockStreamingChunk: { minChars: 300, maxChars: 2500, breakPreference: "sentence" },
          blockStreamingCoalesce: { minChars: 500, maxChars: 3000, idleMs: 250 },
        },
      },
    };
    const settings = resolveBlockStreamingSettings(config, { agentId: "main", channelTextLimit: 2000 });
    expect(settings).toMatchObject({ minChars: 300, maxChars: 2000, breakPreference: "sentence", break: "message_end" });
    expect(settings.coalesce).toEqual({ minChars: 500, maxChars: 2000, idleMs: 250, joiner: " " });
  });

  it("coalesces up to the chunk maxChars unless a coalesce maxChars is set, then up to textChunkLimit", () => {
    const chunk = { blockStreamingChunk: { maxChars: 1500 } };
    expect(resolveBlockStreamingSettings({ agents: { defaults: chunk } }, { channelTextLimit: 4096 }).coalesce.maxChars).toBe(1500);
    const agentWide = { agents: { defaults: { ...chunk, blockStreamingCoalesce: { maxChars: 3000 } } } };
    expect(resolveBlockStreamingSettings(agentWide, { channelTextLimit: 4096 }).coalesce.maxChars).toBe(3000);
    const channel = resolveBlockStreamingSettings(agentWide, { channelTextLimit: 4096, channelCoalesce: { maxChars: 9000 } });
    expect(channel.coalesce.maxChars).toBe(4096);
    // A plugin default is no explicit setting.
    const plugin = resolveBlockStreamingSettings({}, { channelTextLimit: 4096, channelCoalesceDefaults: { maxChars: 3000 } });
    expect(plugin.coalesce.maxChars).toBe(1200);
  });

  it("clamps minChars to a small limit", () => {
    const settings = resolveBlockStreamingSettings({}, { channelTextLimit: 500 });
    expect(settings).toMatchObject({ minChars: 500, maxChars: 500 });
    expect(settings.coalesce).toMatchObject({ minChars: 500, maxChars: 500 });
  });

  it("a channel coalesce object replaces the agent one whole; plugin defaults fill its gaps", () => {
    const config = { agents: { defaults: { blockStreamingCoalesce: { minChars: 500, idleMs: 250 } } } };
    const settings = resolveBlockStreamingSettings(config, {
      channelCoalesce: { maxChars: 1500 },
      channelCoalesceDefaults: { minChars: 1200, idleMs: 2000 },
      channelChunkMode: "newline",
    });
    expect(settings.coalesce).toEqual({ minChars: 1200, maxChars: 1500, idleMs: 2000, joiner: "\n\n" });
    expect(settings.chunkMode).toBe("newline");
  });

  it("falls back on invalid values", () => {
    const config = {
      agents: {
        defaults: {
          blockStreamingBreak: "sometimes",
          blockStreamingChunk: { minChars: -1, maxChars: Number.NaN, breakPreference: "word" },
        },
      },
    };
    expect(resolveBlockStreamingSettings(config)).toMatchObject({
      minChars: 800,
      maxChars: 1200,
      breakPreference: "paragraph",
      break: "text_end",
    });
  });
});
