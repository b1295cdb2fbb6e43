import { describe, expect, it } from "vitest";
import { createConfigRegistry, validateConfig } from "./index.js";

function problems(raw: Record<string, unknown>) {
  const result = validateConfig(raw, createConfigRegistry());
  if (result.ok) throw new Error("expected the config to be refused");
  return result.problems;
}

describe("reference exec approval keys", () => {
  it("are refused with a message saying they are not supported, and the fix", () => {
    const found = problems({ tools: { exec: { security: "allowlist", ask: "on-miss", safeBins: ["jq"], host: "node" } } });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "tools.exec.security", fix: expect.stringContaining("tools.exec.mode") }),
        expect.objectContaining({ path: "tools.exec.ask", message: expect.stringContaining("exec approvals are not supported") }),
        expect.objectContaining({ path: "tools.exec.safeBins", message: "safe bins are not supported." }),
        expect.objectContaining({ path: "tools.exec.host", message: expect.stringContaining("commands always run on the gateway's host") }),
      ]),
    );
    expect(found).toHaveLength(4);
  });

  it('refuse the modes that need approval prompts ("ask", "auto")', () => {
    const [problem] = problems({ tools: { exec: { mode: "ask" } } });
    expect(problem).toMatchObject({ path: "tools.exec.mode", fix: 'use "allowlist" (with tools.exec.allowlist), "full" or "deny".' });
    expect(problem!.message).toContain("exec approvals are not supported");
  });

  it("refuse per-agent exec settings", () => {
    const [problem] = problems({ agents: { entries: { main: { tools: { exec: { mode: "deny" } } } } } });
    expect(problem).toMatchObject({
      path: "agents.entries.main.tools.exec",
      message: expect.stringContaining("per-agent exec settings are not supported"),
    });
  });

  it("accept what this version supports", () => {
    const result = validateConfig(
      { tools: { exec: { mode: "allowlist", allowlist: ["git"], passEnv: ["NPM_CONFIG_REGISTRY"] } } },
      createConfigRegistry(),
    );
    expect(result.ok).toBe(true);
  });
});
