// Private to skills/: the workspace/ folder exports an equivalent that the lead may swap in.
import path from "node:path";
import { agentEntries, agentEntry, resolveDefaultAgentId, type LooseConfig } from "./config.js";

export interface WorkspaceDirOptions {
  stateDir: string;
  home: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The workspace of an agent: `agents.entries.<id>.workspace`, else `agents.defaults.workspace`,
 * else `OPENCLAW_WORKSPACE_DIR`, else `<stateDir>/workspace`, except that a non-default agent in a
 * setup with several entries falls back to `<stateDir>/workspace-<id>`. `~` is expanded and
 * relative paths resolve against the working directory.
 */
export function resolveWorkspaceDir(
  config: LooseConfig,
  agentId: string,
  options: WorkspaceDirOptions,
): string {
  const env = options.env ?? process.env;
  const expand = (p: string): string => {
    if (p === "~") return options.home;
    if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(options.home, p.slice(2));
    return path.resolve(p);
  };
  const own = agentEntry(config, agentId)?.workspace;
  if (typeof own === "string" && own !== "") return expand(own);
  const defaults = config?.agents?.defaults?.workspace;
  if (typeof defaults === "string" && defaults !== "") return expand(defaults);
  const fromEnv = env.OPENCLAW_WORKSPACE_DIR;
  if (fromEnv) return expand(fromEnv);
  const id = agentId.toLowerCase();
  const several = Object.keys(agentEntries(config)).length > 1;
  if (several && id !== resolveDefaultAgentId(config)) {
    return path.join(options.stateDir, `workspace-${id}`);
  }
  return path.join(options.stateDir, "workspace");
}
