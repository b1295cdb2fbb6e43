import type { OpenClawConfig } from "../../config/index.js";
import { normalizeAgentId } from "../../sessions/index.js";
import { matchesGlob } from "../glob.js";
import { TOOL_ALIASES, TOOL_GROUPS, TOOL_PROFILES, type ToolProfile } from "./groups.js";

/** One scope's lists (`tools` or `agents.entries.<id>.tools`). */
export interface ToolPolicyLayer {
  /** Config path of the scope, for explanations: `"tools"` or `"agents.entries.<id>.tools"`. */
  scope: string;
  allow?: string[];
  alsoAllow?: string[];
  deny?: string[];
}

/** The resolved tool policy of one agent. */
export interface ToolPolicy {
  /** The agent's profile if set, else the global one; undefined means `full`. */
  profile?: ToolProfile;
  /** Where the profile came from. */
  profileScope?: string;
  /** Global layer first, then the agent's. */
  layers: ToolPolicyLayer[];
}

/** Anything with a name (and optionally groups) can be checked against a policy. */
export interface PolicySubject {
  name: string;
  groups?: readonly string[];
}

export interface ToolDecision {
  allowed: boolean;
  /** Human-readable: which rule decided, e.g. `denied by tools.deny ("exec")`. */
  reason: string;
}

interface ScopeConfig {
  profile?: unknown;
  allow?: unknown;
  alsoAllow?: unknown;
  deny?: unknown;
}

function list(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : undefined;
}

function profileOf(value: unknown): ToolProfile | undefined {
  return value === "minimal" || value === "coding" || value === "messaging" || value === "full" ? value : undefined;
}

function layer(scope: string, raw: ScopeConfig | undefined): ToolPolicyLayer {
  const out: ToolPolicyLayer = { scope };
  const allow = list(raw?.allow);
  const alsoAllow = list(raw?.alsoAllow);
  const deny = list(raw?.deny);
  if (allow) out.allow = allow;
  if (alsoAllow) out.alsoAllow = alsoAllow;
  if (deny) out.deny = deny;
  return out;
}

function findAgentTools(config: OpenClawConfig | undefined, agentId: string): { id: string; tools: ScopeConfig } | undefined {
  const entries = (config?.agents?.entries ?? {}) as Record<string, { tools?: ScopeConfig } | undefined>;
  const wanted = normalizeAgentId(agentId);
  for (const [id, entry] of Object.entries(entries)) {
    if (normalizeAgentId(id) === wanted && entry?.tools) return { id, tools: entry.tools };
  }
  return undefined;
}

/**
 * The tool policy for `agentId`: the global `tools` block, then `agents.entries.<id>.tools` on
 * top (agent ids match case-insensitively). The agent's `profile` replaces the global one.
 */
export function resolveToolPolicy(config: OpenClawConfig | undefined, agentId: string): ToolPolicy {
  const global = config?.tools as ScopeConfig | undefined;
  const agent = findAgentTools(config, agentId);
  const policy: ToolPolicy = { layers: [layer("tools", global)] };
  if (agent) policy.layers.push(layer(`agents.entries.${agent.id}.tools`, agent.tools));
  const agentProfile = profileOf(agent?.tools.profile);
  const globalProfile = profileOf(global?.profile);
  if (agentProfile) {
    policy.profile = agentProfile;
    policy.profileScope = `agents.entries.${agent!.id}.tools.profile`;
  } else if (globalProfile) {
    policy.profile = globalProfile;
    policy.profileScope = "tools.profile";
  }
  return policy;
}

function canonical(name: string): string {
  const lower = name.trim().toLowerCase();
  return TOOL_ALIASES[lower] ?? lower;
}

/**
 * Whether one policy entry covers a tool. Entries are case-insensitive tool names (`exec`,
 * aliases such as `bash`), `*` wildcards (`web_*`, `*`), or groups (`group:fs`), which cover the
 * built-in members of the group and any tool that declares the group itself.
 */
export function entryMatches(entry: string, tool: PolicySubject): boolean {
  const e = canonical(entry);
  const name = canonical(tool.name);
  if (e.startsWith("group:")) {
    const declared = (tool.groups ?? []).map((g) => g.toLowerCase());
    if (e.includes("*"))
      return (
        declared.some((g) => matchesGlob(e, g)) ||
        Object.entries(TOOL_GROUPS).some(([g, members]) => matchesGlob(e, g) && members.includes(name))
      );
    return declared.includes(e) || (TOOL_GROUPS[e]?.includes(name) ?? false);
  }
  return e.includes("*") ? matchesGlob(e, name) : e === name;
}

function firstMatch(entries: readonly string[] | undefined, tool: PolicySubject): string | undefined {
  return entries?.find((e) => entryMatches(e, tool));
}

/**
 * Decides one tool: start from the profile (every tool when unset or `full`); then for each
 * layer in order, `allow` replaces the set so far, `alsoAllow` adds to it, `deny` removes. A deny
 * in any layer wins over everything, so an agent cannot re-allow what `tools.deny` removed.
 */
export function evaluateTool(policy: ToolPolicy, tool: PolicySubject): ToolDecision {
  let allowed: boolean;
  let reason: string;
  if (!policy.profile || policy.profile === "full") {
    allowed = true;
    reason = policy.profile ? `${policy.profileScope} is "full"` : "no profile set (full)";
  } else {
    const hit = firstMatch(TOOL_PROFILES[policy.profile], tool);
    allowed = hit !== undefined;
    reason = `${allowed ? "in" : "not in"} profile "${policy.profile}" (${policy.profileScope})`;
  }
  for (const l of policy.layers) {
    if (l.allow) {
      const hit = firstMatch(l.allow, tool);
      allowed = hit !== undefined;
      reason = allowed ? `allowed by ${l.scope}.allow (${JSON.stringify(hit)})` : `not in ${l.scope}.allow`;
    } else if (l.alsoAllow) {
      const hit = firstMatch(l.alsoAllow, tool);
      if (hit !== undefined && !allowed) {
        allowed = true;
        reason = `added by ${l.scope}.alsoAllow (${JSON.stringify(hit)})`;
      }
    }
  }
  for (const l of policy.layers) {
    const hit = firstMatch(l.deny, tool);
    if (hit !== undefined) return { allowed: false, reason: `denied by ${l.scope}.deny (${JSON.stringify(hit)})` };
  }
  return { allowed, reason };
}

/** Shorthand for `evaluateTool(policy, tool).allowed`. */
export function isToolAllowed(policy: ToolPolicy, tool: PolicySubject): boolean {
  return evaluateTool(policy, tool).allowed;
}

/** The tools the policy lets through, in their original order. */
export function filterTools<T extends PolicySubject>(tools: readonly T[], policy: ToolPolicy): T[] {
  return tools.filter((t) => isToolAllowed(policy, t));
}
