// The folder a session works in: its agent's workspace, or, for a sandboxed session, a folder
// of its own (see workspace/sandbox.ts), with what it may still reach of the agent's workspace.
import type { OpenClawConfig, OpenClawPaths } from "../config/index.js";
import { parseSessionKey } from "../sessions/index.js";
import type { ToolRoot } from "../tool-contract/index.js";
import { isSandboxedSession, prepareSandboxDir, resolveSandboxSettings, sandboxDir } from "../workspace/sandbox.js";

/** Where one session's turn works. */
export interface SessionWorkspace {
  /** The working directory: the agent workspace, or the session's sandbox folder (real path). */
  workspaceDir: string;
  /** Set for a sandboxed session. */
  sandbox?: { agentWorkspaceDir: string; access: "rw" | "ro" | "none" };
  /** What file tools may reach besides `workspaceDir` (the agent workspace, per `workspaceAccess`). */
  extraRoots?: ToolRoot[];
  /** A line for the prompt's Workspace section telling the model where it is and what it may reach. */
  promptNote?: string;
}

/**
 * The workspace of a session's turn. Not sandboxed (mode "off", or the main session under
 * "non-main"): the agent workspace. Sandboxed: its sandbox folder, created and seeded on first
 * use; `workspaceAccess` "rw" lets the file tools read and write the agent workspace by absolute
 * path, "ro" read it only, "none" not reach it at all. `exec` starts in the sandbox folder either
 * way, but the shell itself is not confined (no container).
 */
export async function resolveSessionWorkspace(options: {
  config: OpenClawConfig;
  paths: Pick<OpenClawPaths, "stateDir">;
  env?: NodeJS.ProcessEnv;
  agentId: string;
  sessionKey: string;
  agentWorkspaceDir: string;
}): Promise<SessionWorkspace> {
  const settings = resolveSandboxSettings(options.config, options.agentId, options.paths, options.env);
  if (!isSandboxedSession(settings, options.sessionKey)) return { workspaceDir: options.agentWorkspaceDir };
  const workspaceDir = await prepareSandboxDir({
    dir: sandboxDir(settings, options.agentId, options.sessionKey),
    agentWorkspaceDir: options.agentWorkspaceDir,
    includeMemory: settings.scope === "session" && parseSessionKey(options.sessionKey).kind === "main",
  });
  const access = settings.workspaceAccess;
  const agentWs = options.agentWorkspaceDir;
  const key = `${settings.configKey}.workspaceAccess`;
  const extraRoots: ToolRoot[] =
    access === "none" ? [] : [{ dir: agentWs, writable: access === "rw", label: "the agent workspace", readOnlyReason: `${key} is "ro"` }];
  const reach =
    access === "rw"
      ? `The agent's main workspace (${agentWs}) can be read and written by absolute path.`
      : access === "ro"
        ? `The agent's main workspace (${agentWs}) can be read by absolute path, not written.`
        : "The agent's main workspace cannot be reached from here.";
  return {
    workspaceDir,
    sandbox: { agentWorkspaceDir: agentWs, access },
    extraRoots,
    promptNote: `This session is sandboxed (${settings.configKey}): it works in its own folder, seeded with copies of the agent's bootstrap files. ${reach}`,
  };
}
