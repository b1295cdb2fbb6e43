import { describe, expect, it } from "vitest";
import { sharedSessionWarnings } from "./session-warnings.js";

describe("sharedSessionWarnings: settings that put different people in one session", () => {
  it("warns when an allowFrom lists several senders while DMs share the main session", () => {
    const warnings = sharedSessionWarnings({
      channels: { chat: { allowFrom: ["1", "2"], accounts: { work: { allowFrom: ["3"] }, team: { allowFrom: ["4", "5", "*"] } } } },
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^channels\.chat\.allowFrom lists 2 senders and session\.dmScope is "main"/);
    expect(warnings[0]).toContain('set session.dmScope to "per-channel-peer"');
    expect(warnings[1]).toMatch(/^channels\.chat\.accounts\.team\.allowFrom lists 2 senders/);
  });

  it("is quiet for one owner, for a wildcard, and when DMs are not in the main session", () => {
    expect(sharedSessionWarnings({ channels: { chat: { allowFrom: ["1"] } } })).toEqual([]);
    expect(sharedSessionWarnings({ channels: { chat: { dmPolicy: "open", allowFrom: ["*"] } } })).toEqual([]);
    expect(sharedSessionWarnings({ session: { dmScope: "per-channel-peer" }, channels: { chat: { allowFrom: ["1", "2"] } } })).toEqual([]);
  });
});
