import { describe, expect, it } from "vitest";
import { securityWarnings } from "./security-warnings.js";

describe('securityWarnings: gateway.auth.mode "none"', () => {
  it("warns that every local program can drive the agent and that browsers are refused", () => {
    const warnings = securityWarnings({ gateway: { bind: "loopback", auth: { mode: "none" } } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^gateway\.auth\.mode is "none": every program and every user account on this machine can drive the agent/);
    expect(warnings[0]).toContain("Remove gateway.auth.mode");
  });

  it("is quiet with token auth (the default) and keeps the shared-session warnings", () => {
    expect(securityWarnings({})).toEqual([]);
    expect(securityWarnings({ gateway: { auth: { mode: "token" } } })).toEqual([]);
    const both = securityWarnings({ gateway: { auth: { mode: "none" } }, channels: { chat: { allowFrom: ["1", "2"] } } });
    expect(both.map((w) => w.slice(0, 24))).toEqual(["channels.chat.allowFrom ", 'gateway.auth.mode is "no']);
  });
});
