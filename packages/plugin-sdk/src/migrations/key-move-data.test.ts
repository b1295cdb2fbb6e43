import { describe, expect, it } from "vitest";
import { compileChannelMigrations } from "./data.js";
import { applyLegacyKeyRules } from "./types.js";

describe("key-move migrations", () => {
  const rules = compileChannelMigrations("matrix", [
    { kind: "key-move", from: ["dm", "policy"], to: ["dmPolicy"] },
    { kind: "key-move", from: ["dm", "allowFrom"], to: ["allowFrom"] },
  ]);

  it("removes a parent object the moves leave empty, at the root and in accounts", () => {
    const config = {
      channels: { matrix: { dm: { policy: "allowlist", allowFrom: ["@a:x.org"] }, accounts: { work: { dm: { policy: "open" } } } } },
    };
    const outcome = applyLegacyKeyRules(config, rules);
    expect(config.channels.matrix).toEqual({ dmPolicy: "allowlist", allowFrom: ["@a:x.org"], accounts: { work: { dmPolicy: "open" } } });
    expect(outcome.changes).toContain("channels.matrix.dm.policy -> channels.matrix.dmPolicy");
  });

  it("keeps a parent that still holds other keys", () => {
    const config = { channels: { matrix: { dm: { policy: "open", enabled: true } } } };
    applyLegacyKeyRules(config, rules);
    expect(config.channels.matrix).toEqual({ dmPolicy: "open", dm: { enabled: true } });
  });
});
