import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveAllWorkspaceDirs, resolveDefaultAgentId, resolveWorkspaceSettings } from "./index.js";

const paths = { stateDir: "/home/u/.openclaw", configPath: "/home/u/.openclaw/openclaw.json" };
const env = { HOME: "/home/u" };

describe("resolveWorkspaceSettings", () => {
  it("defaults to <stateDir>/workspace, agent main, 12000/60000, skipBootstrap false", () => {
    expect(resolveWorkspaceSettings({} as never, undefined, paths, { env })).toEqual({
      agentId: "main",
      workspaceDir: "/home/u/.openclaw/workspace",
      skipBootstrap: false,
      bootstrapMaxChars: 12000,
      bootstrapTotalMaxChars: 60000,
    });
  });

  it("prefers agents.defaults.workspace over OPENCLAW_WORKSPACE_DIR, and expands ~", () => {
    const withEnv = { ...env, OPENCLAW_WORKSPACE_DIR: "~/from-env" };
    expect(resolveWorkspaceSettings({} as never, undefined, paths, { env: withEnv }).workspaceDir).toBe("/home/u/from-env");
    const config = { agents: { defaults: { workspace: "~/ws" } } } as never;
    expect(resolveWorkspaceSettings(config, undefined, paths, { env: withEnv }).workspaceDir).toBe("/home/u/ws");
  });

  it("gives entries their own workspace, and a non-default agent without one <stateDir>/workspace-<id>", () => {
    const config = {
      agents: {
        defaults: { workspace: "/srv/main-ws", bootstrapMaxChars: 9000 },
        entries: { Home: { default: true }, work: { workspace: "/srv/work" }, side: { bootstrapMaxChars: 500 } },
      },
    } as never;
    expect(resolveDefaultAgentId(config)).toBe("home");
    expect(resolveWorkspaceSettings(config, "home", paths, { env }).workspaceDir).toBe("/srv/main-ws");
    expect(resolveWorkspaceSettings(config, "work", paths, { env }).workspaceDir).toBe("/srv/work");
    const side = resolveWorkspaceSettings(config, "side", paths, { env });
    expect(side.workspaceDir).toBe(path.join(paths.stateDir, "workspace-side"));
    expect(side.bootstrapMaxChars).toBe(500);
    expect(resolveWorkspaceSettings(config, "home", paths, { env }).bootstrapMaxChars).toBe(9000);
    expect(resolveAllWorkspaceDirs(config, paths, { env })).toEqual(["/srv/main-ws", "/srv/work", "/home/u/.openclaw/workspace-side"]);
  });

  it("refuses an agent id that is not configured", () => {
    expect(() => resolveWorkspaceSettings({} as never, "mian", paths, { env })).toThrow(/No agent "mian".*known agents: main/);
  });
});
