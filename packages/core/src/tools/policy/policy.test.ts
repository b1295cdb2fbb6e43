import { describe, expect, it } from "vitest";
import { makeConfig } from "../__fixtures__/context.js";
import { evaluateTool, filterTools, resolveToolPolicy, type PolicySubject } from "../index.js";

const ALL = [
  "read",
  "write",
  "edit",
  "apply_patch",
  "exec",
  "process",
  "web_search",
  "web_fetch",
  "memory_search",
  "memory_get",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
  "session_status",
  "agents_list",
  "message",
  "cron",
  "gateway",
].map((name) => ({ name }));
const pluginTool: PolicySubject = { name: "calendar_add", groups: ["group:calendar"] };

function allowed(raw: Record<string, unknown>, agentId = "main", tools: PolicySubject[] = ALL): string[] {
  return filterTools(tools, resolveToolPolicy(makeConfig(raw), agentId)).map((t) => t.name);
}

describe("profiles", () => {
  it("no profile and full allow everything", () => {
    expect(allowed({})).toEqual(ALL.map((t) => t.name));
    expect(allowed({ tools: { profile: "full" } })).toEqual(ALL.map((t) => t.name));
  });

  it("minimal, coding and messaging start from their groups", () => {
    expect(allowed({ tools: { profile: "minimal" } })).toEqual(["session_status"]);
    expect(allowed({ tools: { profile: "coding" } })).toEqual([
      "read",
      "write",
      "edit",
      "apply_patch",
      "exec",
      "process",
      "web_search",
      "web_fetch",
      "memory_search",
      "memory_get",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
      "session_status",
      "cron",
    ]);
    expect(allowed({ tools: { profile: "messaging" } })).toEqual([
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
      "session_status",
      "message",
    ]);
  });
});

describe("allow / alsoAllow / deny in one scope", () => {
  it("allow replaces the profile's set", () => {
    expect(allowed({ tools: { profile: "coding", allow: ["read", "message"] } })).toEqual(["read", "message"]);
  });

  it("alsoAllow adds to the profile's set", () => {
    expect(allowed({ tools: { profile: "minimal", alsoAllow: ["group:memory"] } })).toEqual([
      "memory_search",
      "memory_get",
      "session_status",
    ]);
  });

  it("deny wins over allow", () => {
    expect(allowed({ tools: { allow: ["group:fs"], deny: ["apply_patch"] } })).toEqual(["read", "write", "edit"]);
  });

  it("matches names and groups case-insensitively, with * wildcards and aliases", () => {
    expect(allowed({ tools: { allow: ["READ", "Group:Runtime", "sessions_*"] } })).toEqual([
      "read",
      "exec",
      "process",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
    ]);
    expect(allowed({ tools: { deny: ["*"] } })).toEqual([]);
    expect(allowed({ tools: { profile: "coding", deny: ["bash", "memory_*"] } })).not.toContain("exec");
  });

  it("groups cover tools that declare them", () => {
    expect(allowed({ tools: { profile: "minimal", alsoAllow: ["group:calendar"] } }, "main", [...ALL, pluginTool])).toEqual([
      "session_status",
      "calendar_add",
    ]);
    expect(allowed({ tools: { deny: ["group:cal*"] } }, "main", [pluginTool])).toEqual([]);
  });
});

describe("agent scope on top of the global one", () => {
  const entries = (tools: Record<string, unknown>) => ({ agents: { entries: { coder: { tools } } } });

  it("the agent's profile replaces the global profile", () => {
    expect(allowed({ tools: { profile: "coding" }, ...entries({ profile: "minimal" }) }, "coder")).toEqual(["session_status"]);
    expect(allowed({ tools: { profile: "coding" }, ...entries({ profile: "minimal" }) }, "main")).toContain("exec");
  });

  it("agent alsoAllow adds to the global result, agent allow replaces it", () => {
    expect(allowed({ tools: { profile: "minimal" }, ...entries({ alsoAllow: ["read"] }) }, "coder")).toEqual(["read", "session_status"]);
    expect(allowed({ tools: { allow: ["read", "write"] }, ...entries({ allow: ["exec"] }) }, "coder")).toEqual(["exec"]);
  });

  it("agent deny removes more", () => {
    expect(allowed({ tools: { profile: "coding" }, ...entries({ deny: ["group:runtime", "web_*"] }) }, "coder")).not.toEqual(
      expect.arrayContaining(["exec", "process", "web_fetch"]),
    );
  });

  it("a global deny wins even over the agent's allow", () => {
    const policy = resolveToolPolicy(makeConfig({ tools: { deny: ["exec"] }, ...entries({ allow: ["exec", "read"] }) }), "coder");
    expect(filterTools(ALL, policy).map((t) => t.name)).toEqual(["read"]);
    expect(evaluateTool(policy, { name: "exec" })).toEqual({ allowed: false, reason: 'denied by tools.deny ("exec")' });
  });

  it("finds the agent's entry case-insensitively and explains decisions", () => {
    const policy = resolveToolPolicy(
      makeConfig({ tools: { profile: "minimal" }, agents: { entries: { Coder: { tools: { alsoAllow: ["read"] } } } } }),
      "coder",
    );
    expect(policy.layers.map((l) => l.scope)).toEqual(["tools", "agents.entries.Coder.tools"]);
    expect(evaluateTool(policy, { name: "read" }).reason).toBe('added by agents.entries.Coder.tools.alsoAllow ("read")');
    expect(evaluateTool(policy, { name: "exec" }).reason).toBe('not in profile "minimal" (tools.profile)');
  });
});

describe("group:automation", () => {
  it("holds cron and gateway; the coding profile has cron only", () => {
    const denied = allowed({ tools: { deny: ["group:automation"] } });
    expect(denied).not.toContain("cron");
    expect(denied).not.toContain("gateway");
    expect(allowed({ tools: { allow: ["group:automation"] } })).toEqual(["cron", "gateway"]);
    expect(allowed({ tools: { profile: "coding" } })).not.toContain("gateway");
  });
});

describe("group:ui", () => {
  it("holds the browser, which the coding profile leaves out", () => {
    const tools = [...ALL, { name: "browser" }];
    expect(allowed({ tools: { allow: ["group:ui"] } }, "main", tools)).toEqual(["browser"]);
    expect(allowed({}, "main", tools)).toContain("browser");
    expect(allowed({ tools: { profile: "coding" } }, "main", tools)).not.toContain("browser");
    expect(allowed({ tools: { profile: "coding", alsoAllow: ["group:ui"] } }, "main", tools)).toContain("browser");
  });
});
