import { describe, expect, it } from "vitest";
import type { DeliveryPolicy } from "@openclaw/plugin-sdk/config";
import { planDelivery, type PlanInput } from "./plan.js";

// The policies the five channels declare (DESIGN.md's streaming table), as plugins state them.
const policies: Record<string, DeliveryPolicy> = {
  telegram: { previewModes: ["partial", "block", "progress"], defaultMode: "partial", blockReplies: "inherit" },
  matrix: { previewModes: ["partial", "quiet", "progress"], defaultMode: "off", blockReplies: "explicit" },
  feishu: {
    previewModes: ["partial"],
    defaultMode: "partial",
    blockReplies: "explicit",
    nativeStream: { mode: "partial", overBlocks: false },
  },
  qqbot: {
    previewModes: ["partial"],
    defaultMode: "partial",
    blockReplies: "unless-off",
    nativeStream: { mode: "partial", flag: "nativeTransport", overBlocks: true },
  },
  whatsapp: { previewModes: [], defaultMode: null, blockReplies: "explicit" },
};
// Capabilities per chat: QQ streams only in C2C (direct) chats.
const caps = (id: string, chatKind: PlanInput["chatKind"]): PlanInput["capabilities"] =>
  ({
    telegram: { edit: true },
    matrix: { edit: true },
    feishu: { edit: true, nativeStream: "replace" as const },
    qqbot: chatKind === "direct" ? { edit: false, nativeStream: "replace" as const } : { edit: false },
    whatsapp: { edit: false },
  })[id]!;
const plan = (
  id: keyof typeof policies,
  streaming: PlanInput["streaming"],
  blockStreamingDefault: "on" | "off" = "off",
  chatKind: PlanInput["chatKind"] = "direct",
) => {
  const p = planDelivery({
    channel: id,
    policy: policies[id]!,
    capabilities: caps(id, chatKind),
    streaming,
    blockStreamingDefault,
    chatKind,
  });
  return p.kind === "preview" ? `${p.kind}:${p.mode}` : p.kind;
};

describe("delivery planner (DESIGN.md streaming table)", () => {
  it("telegram: partial preview by default; block.enabled wins; blockStreamingDefault inherited unless an explicit preview mode is set", () => {
    expect(plan("telegram", undefined)).toBe("preview:partial");
    expect(plan("telegram", { mode: "progress" })).toBe("preview:progress");
    expect(plan("telegram", { mode: "block" })).toBe("preview:block");
    expect(plan("telegram", { mode: "off" })).toBe("final");
    expect(plan("telegram", { block: { enabled: true } })).toBe("blocks");
    expect(plan("telegram", { mode: "partial", block: { enabled: true } })).toBe("blocks");
    expect(plan("telegram", undefined, "on")).toBe("blocks");
    expect(plan("telegram", { mode: "partial" }, "on")).toBe("preview:partial");
    expect(plan("telegram", { mode: "off" }, "on")).toBe("blocks");
    expect(plan("telegram", { block: { enabled: false } }, "on")).toBe("preview:partial");
  });

  it("matrix: no preview by default, quiet mode, blocks only when explicitly enabled", () => {
    expect(plan("matrix", undefined)).toBe("final");
    expect(plan("matrix", undefined, "on")).toBe("final");
    expect(plan("matrix", { mode: "quiet" })).toBe("preview:quiet");
    expect(plan("matrix", { mode: "partial", block: { enabled: true } })).toBe("blocks");
  });

  it("feishu: partial is the CardKit streaming card; blocks only explicit", () => {
    expect(plan("feishu", undefined)).toBe("native");
    expect(plan("feishu", { mode: "off" })).toBe("final");
    expect(plan("feishu", { block: { enabled: true } })).toBe("blocks");
    expect(plan("feishu", undefined, "on")).toBe("native");
  });

  it("qqbot: blocks unless mode off; nativeTransport streams direct chats", () => {
    expect(plan("qqbot", undefined)).toBe("blocks");
    expect(plan("qqbot", { mode: "off" })).toBe("final");
    expect(plan("qqbot", { mode: "partial", nativeTransport: true })).toBe("native");
    expect(plan("qqbot", { mode: "partial", nativeTransport: true }, "off", "group")).toBe("blocks");
  });

  it("whatsapp: no preview; blocks only explicit", () => {
    expect(plan("whatsapp", undefined)).toBe("final");
    expect(plan("whatsapp", undefined, "on")).toBe("final");
    expect(plan("whatsapp", { block: { enabled: true } })).toBe("blocks");
  });

  it("a preview mode on a channel that cannot edit falls back to the final only", () => {
    const p = planDelivery({
      channel: "telegram",
      policy: policies.telegram!,
      capabilities: { edit: false },
      streaming: { mode: "partial" },
      blockStreamingDefault: "off",
      chatKind: "direct",
    });
    expect(p.kind).toBe("final");
    expect(p.reason).toContain("cannot edit");
  });
});
