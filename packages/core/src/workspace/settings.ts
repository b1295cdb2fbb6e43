// Workspace-related settings of one agent, read from the validated config (defaults applied).
import path from "node:path";
import { findAgentEntry, resolveAgentId, resolveDefaultAgentId, listAgentIds, normalizeAgentId } from "../agents/index.js";
import { expandUserPath, type OpenClawConfig, type OpenClawPaths } from "../config/index.js";

export { DEFAULT_AGENT_ID, normalizeAgentId, resolveDefaultAgentId } from "../agents/index.js";

/** Default per-file cap for injected bootstrap files (characters). */
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 12_000;
/** Default cap for all injected bootstrap files together (characters). */
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000;

/** Everything the workspace code needs to know about one agent. */
export interface WorkspaceSettings {
  agentId: string;
  /** Absolute path of the agent's workspace. */
  workspaceDir: string;
  /** `agents.defaults.skipBootstrap` (default false): never create workspace files. */
  skipBootstrap: boolean;
  /** `agents.entries.<id>.bootstrapMaxChars` ?? `agents.defaults.bootstrapMaxChars` (12000). */
  bootstrapMaxChars: number;
  /** `agents.entries.<id>.bootstrapTotalMaxChars` ?? `agents.defaults.bootstrapTotalMaxChars` (60000), at least bootstrapMaxChars. */
  bootstrapTotalMaxChars: number;
}

export interface ResolveWorkspaceOptions {
  /** Defaults to process.env; only OPENCLAW_WORKSPACE_DIR and HOME are read. */
  env?: NodeJS.ProcessEnv;
  /** An explicit workspace (e.g. `--workspace`), winning over config; resolved against cwd. */
  workspaceOverride?: string;
}

interface AgentEntryView {
  workspace?: string;
  bootstrapMaxChars?: number;
  bootstrapTotalMaxChars?: number;
}

const resolvePath = (value: string, home: string) => path.resolve(expandUserPath(value.trim(), home));

/**
 * Resolves an agent's workspace directory:
 * 1. `workspaceOverride` (e.g. `openclaw setup --workspace`);
 * 2. `agents.entries.<id>.workspace`;
 * 3. for the default agent: `agents.defaults.workspace`, else env `OPENCLAW_WORKSPACE_DIR`, else
 *    `<stateDir>/workspace`;
 * 4. for any other agent: `<stateDir>/workspace-<agentId>`.
 * `~` expands to HOME; relative paths resolve against the working directory.
 */
export function resolveWorkspaceDir(
  config: OpenClawConfig,
  agentId: string,
  paths: Pick<OpenClawPaths, "stateDir" | "configPath">,
  options: ResolveWorkspaceOptions = {},
): string {
  const env = options.env ?? process.env;
  const home = env.HOME ?? process.env.HOME ?? "";
  const id = normalizeAgentId(agentId);
  if (options.workspaceOverride !== undefined) return resolvePath(options.workspaceOverride, home);
  const own = findAgentEntry<AgentEntryView>(config, id)?.workspace;
  if (own) return resolvePath(own, home);
  if (id === resolveDefaultAgentId(config)) {
    const configured = config.agents?.defaults?.workspace;
    if (configured) return resolvePath(configured, home);
    const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
    if (fromEnv) return resolvePath(fromEnv, home);
    return path.join(paths.stateDir, "workspace");
  }
  return path.join(paths.stateDir, `workspace-${id}`);
}

/**
 * Resolves workspace dir, skipBootstrap and the bootstrap size limits for one agent. `agentId`
 * defaults to the default agent; an unknown id is a UserError that lists the known agents.
 */
export function resolveWorkspaceSettings(
  config: OpenClawConfig,
  agentId: string | undefined,
  paths: Pick<OpenClawPaths, "stateDir" | "configPath">,
  options: ResolveWorkspaceOptions = {},
): WorkspaceSettings {
  const id = resolveAgentId(config, agentId, paths.configPath);
  const defaults = config.agents?.defaults;
  const entry = findAgentEntry<AgentEntryView>(config, id);
  const maxChars = entry?.bootstrapMaxChars ?? defaults?.bootstrapMaxChars ?? DEFAULT_BOOTSTRAP_MAX_CHARS;
  const totalMaxChars = Math.max(
    entry?.bootstrapTotalMaxChars ?? defaults?.bootstrapTotalMaxChars ?? DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
    maxChars,
  );
  return {
    agentId: id,
    workspaceDir: resolveWorkspaceDir(config, id, paths, options),
    skipBootstrap: defaults?.skipBootstrap === true,
    bootstrapMaxChars: maxChars,
    bootstrapTotalMaxChars: totalMaxChars,
  };
}

/** The workspace of the default agent and of every `agents.entries` agent, without duplicates. */
export function resolveAllWorkspaceDirs(
  config: OpenClawConfig,
  paths: Pick<OpenClawPaths, "stateDir" | "configPath">,
  options: Omit<ResolveWorkspaceOptions, "workspaceOverride"> = {},
): string[] {
  return [...new Set(listAgentIds(config).map((id) => resolveWorkspaceDir(config, id, paths, options)))];
}
