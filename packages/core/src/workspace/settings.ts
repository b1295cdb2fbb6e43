// Reads the workspace-related config keys and applies their defaults. The config schema will
// apply the same defaults once it lands; this resolver keeps working on raw config meanwhile.
import path from "node:path";
import { expandUserPath, UserError, type OpenClawConfig, type OpenClawPaths } from "../config/index.js";

/** Agent id used when nothing else names one. */
export const DEFAULT_AGENT_ID = "main";
/** Default per-file cap for injected bootstrap files (characters). */
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 12_000;
/** Default cap for all injected bootstrap files together (characters). */
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000;

const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Everything the workspace code needs to know about one agent. */
export interface WorkspaceSettings {
  agentId: string;
  /** Absolute path of the agent's workspace. */
  workspaceDir: string;
  /** `agents.defaults.skipBootstrap` (default false): never create workspace files. */
  skipBootstrap: boolean;
  /** `agents.entries.<id>.bootstrapMaxChars` ?? `agents.defaults.bootstrapMaxChars` ?? 12000. */
  bootstrapMaxChars: number;
  /** `agents.entries.<id>.bootstrapTotalMaxChars` ?? `agents.defaults.bootstrapTotalMaxChars` ?? max(60000, bootstrapMaxChars). */
  bootstrapTotalMaxChars: number;
}

export interface ResolveWorkspaceOptions {
  /** Defaults to process.env; only OPENCLAW_WORKSPACE_DIR and HOME are read. */
  env?: NodeJS.ProcessEnv;
  /** An explicit workspace (e.g. `--workspace`), winning over config; resolved against cwd. */
  workspaceOverride?: string;
}

/**
 * Normalises an agent id the way the config does: trimmed, lowercased, characters outside
 * `[a-z0-9_-]` replaced with `-`. Throws a UserError when nothing usable remains.
 */
export function normalizeAgentId(raw: string): string {
  const id = raw.trim().toLowerCase().replace(/[^a-z0-9_-]/g, "-");
  if (!AGENT_ID.test(id)) {
    throw new UserError(
      `"${raw}" is not a valid agent id; use 1-64 letters, digits, "-" or "_", starting with a letter or digit.`,
    );
  }
  return id;
}

function agentEntries(config: OpenClawConfig): Record<string, Record<string, unknown>> {
  const entries: unknown = config?.agents?.entries;
  if (!entries || typeof entries !== "object" || Array.isArray(entries)) return {};
  return entries as Record<string, Record<string, unknown>>;
}

function entryFor(config: OpenClawConfig, agentId: string): Record<string, unknown> | undefined {
  for (const [id, entry] of Object.entries(agentEntries(config))) {
    if (normalizeAgentId(id) === agentId && entry && typeof entry === "object") return entry;
  }
  return undefined;
}

/**
 * The default agent: the `agents.entries` entry marked `default: true`, else the first entry,
 * else `main`.
 */
export function resolveDefaultAgentId(config: OpenClawConfig): string {
  const entries = Object.entries(agentEntries(config));
  const marked = entries.find(([, e]) => e && typeof e === "object" && e.default === true);
  const chosen = marked ?? entries[0];
  return chosen ? normalizeAgentId(chosen[0]) : DEFAULT_AGENT_ID;
}

function positiveInt(value: unknown, configPath: string, file: string | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new UserError(
      `${file ?? "config"}: ${configPath} must be a positive whole number of characters (got ${JSON.stringify(value)}); ` +
        `fix or remove it.`,
    );
  }
  return value;
}

function pathValue(value: unknown, configPath: string, file: string | undefined, home: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new UserError(`${file ?? "config"}: ${configPath} must be a non-empty path string; fix or remove it.`);
  }
  return path.resolve(expandUserPath(value.trim(), home));
}

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
  const home = env.HOME ?? process.env.HOME;
  const id = normalizeAgentId(agentId);
  const file = paths.configPath;
  if (options.workspaceOverride !== undefined) {
    return pathValue(options.workspaceOverride, "--workspace", "command line", home ?? "")!;
  }
  const own = pathValue(entryFor(config, id)?.workspace, `agents.entries.${id}.workspace`, file, home ?? "");
  if (own) return own;
  if (id === resolveDefaultAgentId(config)) {
    const configured = pathValue(config?.agents?.defaults?.workspace, "agents.defaults.workspace", file, home ?? "");
    if (configured) return configured;
    const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
    if (fromEnv) return path.resolve(expandUserPath(fromEnv, home));
    return path.join(paths.stateDir, "workspace");
  }
  return path.join(paths.stateDir, `workspace-${id}`);
}

/**
 * Resolves workspace dir, skipBootstrap and the bootstrap size limits for one agent (see fields
 * for defaults). `agentId` defaults to the default agent; any other id must be an
 * `agents.entries` key, else a UserError lists the known agents.
 */
export function resolveWorkspaceSettings(
  config: OpenClawConfig,
  agentId: string | undefined,
  paths: Pick<OpenClawPaths, "stateDir" | "configPath">,
  options: ResolveWorkspaceOptions = {},
): WorkspaceSettings {
  const id = agentId === undefined ? resolveDefaultAgentId(config) : normalizeAgentId(agentId);
  if (id !== resolveDefaultAgentId(config) && !entryFor(config, id)) {
    const known = [resolveDefaultAgentId(config), ...Object.keys(agentEntries(config)).map(normalizeAgentId)];
    throw new UserError(
      `${paths.configPath}: there is no agent "${id}"; use one of ${[...new Set(known)].join(", ")}, ` +
        `or add it under agents.entries.${id}.`,
    );
  }
  const defaults = config?.agents?.defaults ?? {};
  const file = paths.configPath;
  const skip: unknown = defaults.skipBootstrap;
  if (skip !== undefined && typeof skip !== "boolean") {
    throw new UserError(`${file}: agents.defaults.skipBootstrap must be true or false; fix or remove it.`);
  }
  const maxChars =
    positiveInt(entryFor(config, id)?.bootstrapMaxChars, `agents.entries.${id}.bootstrapMaxChars`, file) ??
    positiveInt(defaults.bootstrapMaxChars, "agents.defaults.bootstrapMaxChars", file) ??
    DEFAULT_BOOTSTRAP_MAX_CHARS;
  const totalMaxChars =
    positiveInt(entryFor(config, id)?.bootstrapTotalMaxChars, `agents.entries.${id}.bootstrapTotalMaxChars`, file) ??
    positiveInt(defaults.bootstrapTotalMaxChars, "agents.defaults.bootstrapTotalMaxChars", file) ??
    Math.max(DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS, maxChars);
  return {
    agentId: id,
    workspaceDir: resolveWorkspaceDir(config, id, paths, options),
    skipBootstrap: skip === true,
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
  const ids = [resolveDefaultAgentId(config), ...Object.keys(agentEntries(config)).map(normalizeAgentId)];
  return [...new Set(ids.map((id) => resolveWorkspaceDir(config, id, paths, options)))];
}
