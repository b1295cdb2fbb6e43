import { describe, expect, it } from "vitest";
import { resolveAccessConfig, resolveGroupSettings } from "./index.js";

describe("resolveGroupSettings: systemPrompt and topic agentId", () => {
  const access = resolveAccessConfig(
    { channel: "chat" },
    {
      groups: {
        "-100": { systemPrompt: "Group rules.", topics: { "7": { systemPrompt: "Topic rules.", agentId: "Research" } } },
        "*": { systemPrompt: "Everywhere." },
      },
    },
  );
  it('the topic wins over its group, the group over "*"', () => {
    expect(resolveGroupSettings({ channel: "chat" }, access, "-100", "7")).toMatchObject({
      systemPrompt: "Topic rules.",
      agentId: "Research",
    });
    expect(resolveGroupSettings({ channel: "chat" }, access, "-100", "8")).toMatchObject({ systemPrompt: "Group rules." });
    expect(resolveGroupSettings({ channel: "chat" }, access, "-100", "8").agentId).toBeUndefined();
    expect(resolveGroupSettings({ channel: "chat" }, access, "-200")).toMatchObject({ systemPrompt: "Everywhere." });
  });
});
