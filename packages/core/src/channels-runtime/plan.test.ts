import { describe, expect, it } from "vitest";
import { BUILTIN_CHANNELS } from "../config/index.js";
import { planDelivery, type PlanInput } from "./plan.js";

const def = (id: string) => BUILTIN_CHANNELS.find((c) => c.id === id)!;
const caps = {
  telegram: { edit: true },
  matrix: { edit: true },
  feishu: { edit: true, nativeStream: "replace" as const },
  qqbot: { edit: false, nativeStream: "append" as const },
  whatsapp: { edit: false },
};
const plan = (
  id: keyof typeof caps,
  streaming: PlanInput["streaming"],
  blockStreamingDefault: "on" | "off" = "off",
  chatKind: PlanInput["chatKind"] = "direct",
) =>
  planDelivery({ definition: def(id), capabilities: caps[id], streaming, blockStreamingDefault, chatKind }).kind +
  (() => {
    const p = planDelivery({ definition: def(id), capabilities: caps[id], streaming, blockStreamingDefault, chatKind });
    return p.kind === "preview" ? `:${p.mode}` : "";
  })();

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
      definition: def("telegram"),
      capabilities: { edit: false },
      streaming: { mode: "partial" },
      blockStreamingDefault: "off",
      chatKind: "direct",
    });
    expect(p.kind).toBe("final");
    expect(p.reason).toContain("cannot edit");
  });
});
