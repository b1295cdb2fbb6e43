// Sandboxed sessions (`agents.defaults.sandbox`, `agents.entries.<id>.sandbox`): which sessions
// work in a folder of their own instead of the agent's workspace, where that folder is, and
// how it is seeded. Only the folder is separate: commands still run on the host (no container).
import { constants } from "node:fs";
import { copyFile, lstat, mkdir, realpath } from "node:fs/promises";
import { createHash } from "node:crypto";
import path from "node:path";
import { findAgentEntry } from "../agents/index.js";
import { expandUserPath, type OpenClawConfig, type OpenClawPaths } from "../config/index.js";
import { parseSessionKey } from "../sessions/index.js";
import { MEMORY_FILE_NAME, TEMPLATE_FILE_NAMES } from "./bootstrap-files.js";

export type SandboxMode = "off" | "non-main" | "all";
export type SandboxScope = "session" | "agent" | "shared";
export type SandboxAccess = "rw" | "ro" | "none";

/** One agent's sandbox settings, defaults applied. */
export interface SandboxSettings {
  mode: SandboxMode;
  scope: SandboxScope;
  /** Absolute; default `<stateDir>/sandboxes`. */
  workspaceRoot: string;
  workspaceAccess: SandboxAccess;
  /** Where they come from: `agents.entries.<id>.sandbox` or `agents.defaults.sandbox`. */
  configKey: string;
}

interface SandboxInput {
  mode?: SandboxMode;
  scope?: SandboxScope;
  workspaceRoot?: string;
  workspaceAccess?: SandboxAccess;
}

/**
 * An agent's sandbox settings: `agents.entries.<id>.sandbox` when set (it replaces
 * `agents.defaults.sandbox` as a whole; keys it leaves out take their defaults), else
 * `agents.defaults.sandbox`. Defaults: mode "off", scope "session", workspaceAccess "rw",
 * workspaceRoot `<stateDir>/sandboxes` (`~` expands to HOME; a relative path resolves against the
 * working directory, as `workspace` does).
 */
export function resolveSandboxSettings(
  config: OpenClawConfig,
  agentId: string,
  paths: Pick<OpenClawPaths, "stateDir">,
  env: NodeJS.ProcessEnv = process.env,
): SandboxSettings {
  const own = findAgentEntry<{ sandbox?: SandboxInput }>(config, agentId)?.sandbox;
  const input: SandboxInput = own ?? (config.agents.defaults.sandbox as SandboxInput | undefined) ?? {};
  const root = input.workspaceRoot?.trim();
  return {
    mode: input.mode ?? "off",
    scope: input.scope ?? "session",
    workspaceAccess: input.workspaceAccess ?? "rw",
    workspaceRoot: root ? path.resolve(expandUserPath(root, env.HOME ?? process.env.HOME ?? "")) : path.join(paths.stateDir, "sandboxes"),
    configKey: own ? `agents.entries.${agentId}.sandbox` : "agents.defaults.sandbox",
  };
}

/** Whether a session is sandboxed: mode "all" sandboxes every session, "non-main" all but the agent's main session. */
export function isSandboxedSession(settings: Pick<SandboxSettings, "mode">, sessionKey: string): boolean {
  if (settings.mode === "all") return true;
  return settings.mode === "non-main" && parseSessionKey(sessionKey).kind !== "main";
}

/** A session key as a folder name: readable, safe on every file system, and unique (a hash of the key). */
function folderName(sessionKey: string): string {
  const key = sessionKey.trim().toLowerCase();
  const readable = key
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 64);
  return `${readable || "session"}-${createHash("sha256").update(key).digest("hex").slice(0, 8)}`;
}

/**
 * The folder a sandboxed session works in, by `scope`: "session" ->
 * `<workspaceRoot>/sessions/<session key as a folder name>`, "agent" ->
 * `<workspaceRoot>/agents/<agentId>`, "shared" -> `<workspaceRoot>/shared` (every sandboxed
 * session of every agent using that root).
 */
export function sandboxDir(settings: Pick<SandboxSettings, "scope" | "workspaceRoot">, agentId: string, sessionKey: string): string {
  if (settings.scope === "shared") return path.join(settings.workspaceRoot, "shared");
  if (settings.scope === "agent") return path.join(settings.workspaceRoot, "agents", agentId.toLowerCase());
  return path.join(settings.workspaceRoot, "sessions", folderName(sessionKey));
}

/**
 * Creates a sandbox folder and, when it was just created, seeds it with copies of the agent
 * workspace's bootstrap files (AGENTS.md, SOUL.md, TOOLS.md, IDENTITY.md, USER.md, HEARTBEAT.md;
 * MEMORY.md too for the main session's own folder, never for a folder other sessions share).
 * Missing files, and anything but a regular file, are skipped. Returns the folder's real path.
 */
export async function prepareSandboxDir(options: {
  dir: string;
  agentWorkspaceDir: string;
  /** Copy MEMORY.md as well (the main session's own folder). */
  includeMemory: boolean;
}): Promise<string> {
  const created = await mkdir(options.dir, { recursive: true });
  if (created !== undefined) {
    const names = [...TEMPLATE_FILE_NAMES, ...(options.includeMemory ? [MEMORY_FILE_NAME] : [])];
    for (const name of names) {
      const from = path.join(options.agentWorkspaceDir, name);
      const stats = await lstat(from).catch(() => undefined);
      if (!stats?.isFile()) continue;
      await copyFile(from, path.join(options.dir, name), constants.COPYFILE_EXCL).catch(() => undefined);
    }
  }
  return realpath(options.dir);
}
